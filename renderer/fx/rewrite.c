/* renderer/fx/rewrite.c - the effect's HLSL as glslang 12.0 compiles it right:
 * rewrites of constructs fxc accepts that glslang's HLSL front end gets
 * wrong, applied to the text before it is compiled (mmd_fx_hlsl_rewrite).
 *
 * Matrix swizzles: glslang 12.0 turns a swizzle of several elements that is
 * not one whole row in order (`WorldMatrix._41_42_43`, `M._m30_m31`,
 * `M._11_22_33`) into the row's index constant (`vec3 v = 2;`, which the GLSL
 * compiler refuses). One row's elements become `[row].` and a vector
 * swizzle (`M[3].xyz`, valid after any expression); elements of several rows
 * become a constructor of single elements when the matrix is a plain name or
 * member chain (`float3(M[0].y, M[1].y, M[2].y)`); assigned with an operator,
 * they become a simple assignment glslang supports (`p._11_22 *= s;` is
 * `p._11_22 = float2(p[0].x, p[1].y) * (s);`); other forms are left as
 * written. */
#include <stdbool.h>
#include <string.h>

#include "renderer/fx/translate_internal.h"

static bool ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* The swizzle at s (after the '.'): up to 4 elements `_RC` (1-based) or
 * `_mRC` (0-based), rows and columns 0-based in row[]/col[]; its length,
 * 0 when it is none (or runs into more identifier characters). */
static size_t matrix_swizzle(const char *s, int row[4], int col[4], int *n)
{
    size_t i = 0;
    *n = 0;
    while (s[i] == '_' && *n < 4) {
        int base = 1;
        size_t j = i + 1;
        if (s[j] == 'm') {
            base = 0;
            j++;
        }
        int r = s[j] - '0' - base, c = s[j] ? s[j + 1] - '0' - base : -1;
        if (r < 0 || r > 3 || c < 0 || c > 3)
            return 0;
        row[*n] = r;
        col[*n] = c;
        (*n)++;
        i = j + 2;
    }
    return *n && !ident_char(s[i]) ? i : 0;
}

/* How many characters before `end` (in out) are a plain name or member chain
 * (`M`, `a.b`), 0 when none. */
static size_t name_chain(const char *start, const char *end)
{
    const char *p = end;
    while (p > start && (ident_char(p[-1]) || p[-1] == '.'))
        p--;
    while (p < end && (*p == '.' || (*p >= '0' && *p <= '9')))
        p++;
    return (size_t)(end - p);
}

/* Whether s (after a swizzle) assigns to it: `=` but not `==`, or `op=`. */
static bool assigned(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    if (s[0] == '=')
        return s[1] != '=';
    return strchr("+-*/%&|^", s[0]) && s[0] && s[1] == '=';
}

/* The constructor of single elements for n elements of the matrix `name`. */
static void elements(mmd_fx_text *t, const char *name, const int row[4], const int col[4], int n)
{
    static const char comp[] = "xyzw";
    mmd_fx_text_printf(t, "float%d(", n);
    for (int k = 0; k < n; k++)
        mmd_fx_text_printf(t, "%s%s[%d].%c", k ? ", " : "", name, row[k], comp[col[k]]);
    mmd_fx_text_add(t, ")", 1);
}

/* NAME._RC_RC op= RHS; (elements of several rows, t holding NAME) as
 * NAME._RC_RC = float2(...) op (RHS); returns where the text goes on, NULL
 * when it is no such statement. */
static const char *compound_assignment(mmd_fx_text *t, const char *swz, size_t len, const int row[4],
                                       const int col[4], int n)
{
    const char *op = swz + len;
    while (*op == ' ' || *op == '\t')
        op++;
    size_t base = t->oom ? 0 : name_chain(t->p, t->p + t->len);
    if (!strchr("+-*/", op[0]) || !op[0] || op[1] != '=' || !base || base >= 256)
        return NULL;
    const char *rhs = op + 2, *end = rhs;
    for (int depth = 0; *end && (depth > 0 || *end != ';'); end++)
        depth += (*end == '(') - (*end == ')');
    if (*end != ';')
        return NULL;
    char name[256];
    memcpy(name, t->p + t->len - base, base);
    name[base] = '\0';
    mmd_fx_text_add(t, swz - 1, len + 1);
    mmd_fx_text_add(t, " = ", 3);
    elements(t, name, row, col, n);
    mmd_fx_text_printf(t, " %c (", op[0]);
    mmd_fx_text_add(t, rhs, (size_t)(end - rhs));
    mmd_fx_text_add(t, ")", 1);
    return end;
}

/* One matrix swizzle of n elements to t (which already holds its matrix
 * expression); false when it is kept as written. */
static bool rewrite_swizzle(mmd_fx_text *t, const int row[4], const int col[4], int n, bool lvalue)
{
    static const char comp[] = "xyzw";
    bool one_row = true, whole_row = n == 4;
    for (int k = 0; k < n; k++) {
        one_row = one_row && row[k] == row[0];
        whole_row = whole_row && col[k] == k;
    }
    if (n < 2 || (one_row && whole_row))
        return false;
    if (one_row) {
        mmd_fx_text_printf(t, "[%d].", row[0]);
        for (int k = 0; k < n; k++)
            mmd_fx_text_add(t, &comp[col[k]], 1);
        return true;
    }
    size_t base = t->oom ? 0 : name_chain(t->p, t->p + t->len);
    if (!base || lvalue)
        return false;
    char name[256];
    if (base >= sizeof name)
        return false;
    memcpy(name, t->p + t->len - base, base);
    name[base] = '\0';
    t->len -= base;
    elements(t, name, row, col, n);
    return true;
}

void mmd_fx_hlsl_rewrite(mmd_fx_text *t, const char *hlsl)
{
    const char *s = hlsl, *copied = hlsl;
    bool line_start = true;
    for (; *s; s++) {
        if (line_start && *s == '#') { /* #line "file": never rewritten */
            const char *e = strchr(s, '\n');
            s = e ? e : s + strlen(s) - 1;
            continue;
        }
        line_start = *s == '\n';
        if (*s != '.' || s == hlsl || !(ident_char(s[-1]) || s[-1] == ')' || s[-1] == ']') || s[1] != '_')
            continue;
        int row[4], col[4], n;
        size_t len = matrix_swizzle(s + 1, row, col, &n);
        if (!len)
            continue;
        mmd_fx_text_add(t, copied, (size_t)(s - copied));
        bool one_row = true;
        for (int k = 1; k < n; k++)
            one_row = one_row && row[k] == row[0];
        const char *next = one_row ? NULL : compound_assignment(t, s + 1, len, row, col, n);
        if (next) {
            copied = next;
            s = next - 1;
            continue;
        }
        if (rewrite_swizzle(t, row, col, n, assigned(s + 1 + len)))
            copied = s + 1 + len;
        else
            copied = s;
        s += len;
    }
    mmd_fx_text_add(t, copied, (size_t)(s - copied));
}
