/* core/fx_macro.h - the effect preprocessor's macro table and expansion
 * (core/fx_macro.c), used by core/fx_pre.c. */
#ifndef MMD_CORE_FX_MACRO_H
#define MMD_CORE_FX_MACRO_H

#include "core/fx_internal.h"

typedef struct fx_macro {
    const char *name;
    bool defined, function_like, variadic, disabled;
    const char **params; /* __VA_ARGS__ last when variadic */
    uint32_t param_count;
    fx_tok *body;
    uint32_t body_count;
    struct fx_macro *next;
} fx_macro;

/* The defined macro called s[0..n), NULL when none. */
fx_macro *fx_macro_find(fx_pre *p, const char *s, size_t n);
/* Define (or redefine) s[0..n): a cleared entry to fill, NULL when out of memory. */
fx_macro *fx_macro_add(fx_pre *p, const char *s, size_t n);
/* Expand in[0..n) into out (appended), counting against MMD_FX_MAX_TOKENS. */
mmd_status fx_macro_expand(fx_pre *p, const fx_tok *in, size_t n, fx_toks *out);

#endif
