/* rule.h: Life-like rules, birth and survival neighbour counts 0..8, written "B3/S23" (also
 * read: "b3/s23", "B36/S23", "B2/S", and the old "S/B" form "23/3", survival first). The room
 * reads rules from text: --rule, the bench's rule=, and the rule a pattern file gives
 * (io/life_pattern.h carries it as text, so io knows no rule). */
#ifndef PL_LIFE_RULE_H
#define PL_LIFE_RULE_H

#include "parlab.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pl_life_rule {
    uint16_t birth;   /* bit n set: a dead cell with n live neighbours is born */
    uint16_t survive; /* bit n set: a live cell with n live neighbours survives */
} pl_life_rule;

/* "B3/S23" forms above; anything else is PL_ERR_ARG naming the text and what is wrong. */
pl_status pl_life_rule_parse(const char *text, pl_life_rule *rule);
/* The rule a file gives at line:col (a pattern's rule, rule_line, rule_col): a bad one is
 * PL_ERR_FORMAT "file:line:col: " and pl_life_rule_parse's message. line 0 (not from a file):
 * pl_life_rule_parse. */
pl_status pl_life_rule_parse_at(const char *text, const char *file, int64_t line, int64_t col, pl_life_rule *rule);
/* Canonical "B3/S23" (counts ascending). */
void pl_life_rule_format(const pl_life_rule *rule, char *buf, size_t n);

#ifdef __cplusplus
}
#endif
#endif
