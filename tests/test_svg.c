/* test_svg.c: the report's number format (axis ticks, bar labels): plain digits up to 9999, then
 * k / M / G with three significant digits, never C's exponent form ("1e+03") a reader trips on. */
#include "check.h"
#include "report/svg.h"

#include <string.h>

static void expect(double v, const char *want)
{
    char got[32];
    plot_format(got, sizeof got, v);
    CHECK(!strcmp(got, want), "plot_format(%g) = '%s', want '%s'", v, got, want);
}

int main(void)
{
    expect(0, "0");
    expect(0.5, "0.5");
    expect(12.5, "12.5");
    expect(1000, "1000");
    expect(2500, "2500");
    expect(7000, "7000");
    expect(9999, "9999");
    expect(12000, "12k");
    expect(-3000, "-3000");
    expect(2.5e6, "2.5M");
    expect(4.8e11, "480G");
    return check_summary("test_svg");
}
