/* sizes.c: the size text of the kernels' specs (sizes.h). */
#include "core/sizes.h"
#include "core/core.h"

#include <errno.h>
#include <stdlib.h>

pl_status pl_parse_dims(const char *who, const char *text, int n_dims, const char *shape, int64_t *dims)
{
    const char *s = text;
    int n = 0;
    while (n < n_dims) {
        char *end;
        if (*s < '0' || *s > '9') break; /* rejects signs and blanks */
        errno = 0;
        long long v = strtoll(s, &end, 10);
        if (errno == ERANGE) return pl_fail(PL_ERR_OVERFLOW, "%s size '%s': a number is too large", who, text);
        dims[n++] = v;
        s = end;
        if (n < n_dims && (*s == 'x' || *s == 'X') && s[1] >= '0' && s[1] <= '9') s++;
        else break;
    }
    if (*s != '\0' || (n != 1 && n != n_dims)) {
        if (n_dims == 1 || !shape)
            return pl_fail(PL_ERR_ARG, "%s size '%s': expected N, or small|medium|large", who, text);
        return pl_fail(PL_ERR_ARG, "%s size '%s': expected N, %s, or small|medium|large", who, text, shape);
    }
    for (int i = n; i < n_dims; i++) dims[i] = dims[0];
    for (int i = 0; i < n_dims; i++)
        if (dims[i] <= 0) return pl_fail(PL_ERR_ARG, "%s size '%s': sizes must be positive", who, text);
    return PL_OK;
}
