/* rule.c: Life-like rules in B/S notation (rule.h). "B3/S23" (either case), the old "S/B"
 * form "23/3" (survival first, no letters) and "S23/B3" are read; counts are digits 0..8, and a
 * digit given twice counts once (Golly reads "B33/S23" as B3/S23). Written canonically:
 * "B3/S23", counts ascending. */
#include "core/core.h"
#include "kernels/life/rule.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static pl_status rule_error(const char *text, size_t at, const char *what)
{
    return pl_fail(PL_ERR_ARG,
                   "rule '%s': %s at position %zu (a rule is B<births>/S<survivals> with counts 0..8, "
                   "e.g. B3/S23, or S/B as 23/3)",
                   text, what, at + 1);
}

/* The digits from text[*i] up to '/' or the end into *bits. */
static pl_status read_counts(const char *text, size_t *i, uint16_t *bits)
{
    for (; text[*i] != '\0' && text[*i] != '/'; (*i)++) {
        char c = text[*i];
        if (c == '9') return rule_error(text, *i, "count 9 (a cell has at most 8 neighbours)");
        if (c < '0' || c > '8') {
            char what[48];
            if (isprint((unsigned char)c)) snprintf(what, sizeof what, "unexpected '%c'", c);
            else snprintf(what, sizeof what, "unexpected byte 0x%02x", (unsigned char)c);
            return rule_error(text, *i, what);
        }
        *bits |= (uint16_t)(1u << (c - '0'));
    }
    return PL_OK;
}

pl_status pl_life_rule_parse(const char *text, pl_life_rule *rule)
{
    if (!text || !rule) return pl_fail(PL_ERR_ARG, "pl_life_rule_parse: NULL argument");
    if (text[0] == '\0') return pl_fail(PL_ERR_ARG, "rule '': empty (a rule is B<births>/S<survivals>, e.g. B3/S23)");
    const char *slash = strchr(text, '/');
    if (!slash) return rule_error(text, strlen(text), "no '/' between births and survivals");
    if (strchr(slash + 1, '/')) return rule_error(text, (size_t)(strchr(slash + 1, '/') - text), "a second '/'");

    /* Which half is which: a letter B or S names it; with no letters, survival comes first. */
    char first = (char)toupper((unsigned char)text[0]);
    char second = (char)toupper((unsigned char)slash[1]);
    uint16_t birth = 0, survive = 0;
    size_t i = 0;
    pl_status st;
    if (first == 'B' || first == 'S') {
        char want = first == 'B' ? 'S' : 'B';
        i = 1;
        st = read_counts(text, &i, first == 'B' ? &birth : &survive);
        if (st != PL_OK) return st;
        i++; /* the '/' */
        if (second != want) return rule_error(text, i, first == 'B' ? "expected 'S' after '/'" : "expected 'B' after '/'");
        i++;
        st = read_counts(text, &i, want == 'B' ? &birth : &survive);
    } else {
        st = read_counts(text, &i, &survive);
        if (st != PL_OK) return st;
        i++;
        st = read_counts(text, &i, &birth);
    }
    if (st != PL_OK) return st;
    rule->birth = birth;
    rule->survive = survive;
    return PL_OK;
}

pl_status pl_life_rule_parse_at(const char *text, const char *file, int64_t line, int64_t col, pl_life_rule *rule)
{
    pl_status st = pl_life_rule_parse(text, rule);
    if (st == PL_OK || line <= 0) return st;
    /* Where the file gives it first, as the pattern reader's own complaints read (io/life_pattern.c). */
    char why[200];
    snprintf(why, sizeof why, "%s", pl_last_error());
    return pl_fail(PL_ERR_FORMAT, "%s:%" PRId64 ":%" PRId64 ": %s", file ? file : "", line, col, why);
}

void pl_life_rule_format(const pl_life_rule *rule, char *buf, size_t n)
{
    char out[24];
    size_t k = 0;
    out[k++] = 'B';
    for (int c = 0; c <= 8; c++)
        if (rule->birth >> c & 1) out[k++] = (char)('0' + c);
    out[k++] = '/';
    out[k++] = 'S';
    for (int c = 0; c <= 8; c++)
        if (rule->survive >> c & 1) out[k++] = (char)('0' + c);
    out[k] = '\0';
    if (n > 0) snprintf(buf, n, "%s", out);
}
