/* core/fx_expr.c - #if constant expressions: integers (long long, wrapping
 * as unsigned), C's operators and precedence, nesting capped by
 * MMD_FX_MAX_NESTING; division by zero and a float are errors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fx_internal.h"

typedef struct ev {
    const fx_tok *t;
    size_t n, i;
    int depth;
    const char *file;
    int32_t line;
    mmd_error *err;
    mmd_status st;
} ev;

static long long fail(ev *e, const char *what)
{
    if (e->st == MMD_OK) {
        char got[40] = "the end of the line";
        if (e->i < e->n)
            snprintf(got, sizeof got, "'%.*s'", (int)(e->t[e->i].len < 30 ? e->t[e->i].len : 30), e->t[e->i].s);
        e->st = fx_fail(e->err, MMD_E_BAD_STRUCTURE, e->file, e->line, "#if: %s, got %s", what, got);
    }
    return 0;
}

static bool accept(ev *e, const char *op)
{
    if (e->st == MMD_OK && e->i < e->n && e->t[e->i].kind == FX_T_PUNCT && fx_tok_is(&e->t[e->i], op)) {
        e->i++;
        return true;
    }
    return false;
}

static long long cond_expr(ev *e);

static long long number(ev *e, const fx_tok *t)
{
    char buf[64];
    size_t n = t->len < sizeof buf - 1 ? t->len : sizeof buf - 1;
    memcpy(buf, t->s, n);
    buf[n] = '\0';
    while (n > 0 && strchr("uUlL", buf[n - 1]))
        buf[--n] = '\0';
    char *end = NULL;
    long long v = (long long)strtoull(buf, &end, 0);
    if (n == 0 || *end != '\0')
        return fail(e, "expected an integer constant");
    return v;
}

static long long primary(ev *e)
{
    if (e->st != MMD_OK)
        return 0;
    if (++e->depth > MMD_FX_MAX_NESTING)
        return fail(e, "expression nests too deep");
    long long v = 0;
    if (accept(e, "(")) {
        v = cond_expr(e);
        if (!accept(e, ")"))
            fail(e, "expected )");
    } else if (accept(e, "!")) {
        v = !primary(e);
    } else if (accept(e, "~")) {
        v = (long long)~(unsigned long long)primary(e);
    } else if (accept(e, "-")) {
        v = (long long)(0ull - (unsigned long long)primary(e));
    } else if (accept(e, "+")) {
        v = primary(e);
    } else if (e->i < e->n && e->t[e->i].kind == FX_T_NUMBER) {
        v = number(e, &e->t[e->i++]);
    } else {
        fail(e, "expected a number");
    }
    e->depth--;
    return v;
}

/* Binary operators by precedence level, lowest first. */
static const char *const k_levels[][4] = {
    {"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<", ">", "<=", ">="}, {"<<", ">>"}, {"+", "-"},
    {"*", "/", "%"},
};
#define LEVELS (int)(sizeof k_levels / sizeof *k_levels)

static long long apply(ev *e, const char *op, long long a, long long b)
{
    unsigned long long ua = (unsigned long long)a, ub = (unsigned long long)b;
    switch (op[0]) {
    case '|': return op[1] ? (a || b) : (long long)(ua | ub);
    case '&': return op[1] ? (a && b) : (long long)(ua & ub);
    case '^': return (long long)(ua ^ ub);
    case '=': return a == b;
    case '!': return a != b;
    case '<': return op[1] == '<' ? (long long)(ua << (ub & 63)) : op[1] ? a <= b : a < b;
    case '>': return op[1] == '>' ? a >> (ub & 63) : op[1] ? a >= b : a > b;
    case '+': return (long long)(ua + ub);
    case '-': return (long long)(ua - ub);
    case '*': return (long long)(ua * ub);
    default:
        if (b == 0 || (b == -1 && a == (long long)(1ull << 63)))
            return fail(e, "division by zero");
        return op[0] == '/' ? a / b : a % b;
    }
}

static long long binary(ev *e, int level)
{
    if (level == LEVELS)
        return primary(e);
    long long v = binary(e, level + 1);
    for (bool more = true; more && e->st == MMD_OK;) {
        more = false;
        for (int k = 0; k < 4 && k_levels[level][k]; k++)
            if (accept(e, k_levels[level][k])) {
                long long r = binary(e, level + 1);
                v = apply(e, k_levels[level][k], v, r);
                more = true;
                break;
            }
    }
    return v;
}

static long long cond_expr(ev *e)
{
    long long c = binary(e, 0);
    if (!accept(e, "?"))
        return c;
    if (++e->depth > MMD_FX_MAX_NESTING)
        return fail(e, "expression nests too deep");
    long long a = cond_expr(e);
    if (!accept(e, ":"))
        return fail(e, "expected : in ?:");
    long long b = cond_expr(e);
    e->depth--;
    return c ? a : b;
}

mmd_status fx_eval(const fx_tok *t, size_t n, const char *file, int32_t line, long long *value, mmd_error *err)
{
    ev e = {t, n, 0, 0, file, line, err, MMD_OK};
    long long v = cond_expr(&e);
    if (e.st == MMD_OK && e.i < e.n)
        fail(&e, "expected the end of the expression");
    if (e.st == MMD_OK && n == 0)
        fail(&e, "expected an expression");
    *value = v;
    return e.st;
}
