/* core/fx.h - MikuMikuEffect effect files (.fx, .fxsub): a bounded parser.
 *
 *     mmd_fx *fx; mmd_error err;
 *     mmd_fx_loader ld = {my_read, my_ctx};          (NULL: #include is an error)
 *     if (mmd_fx_load(bytes, size, "dir/effect.fx", &ld, &fx, &err) != MMD_OK) ...
 *     ... fx->techniques[i].passes[j].ps.entry ...
 *     mmd_fx_free(fx);
 *
 * The language is DirectX 9's effect format as MME uses it: a C preprocessor
 * (core/fx_pre.c), then global parameters with semantics and annotations,
 * texture and sampler declarations (sampler_state), techniques and passes
 * (core/fx_parse.c). Functions, structs and typedefs are kept as raw HLSL
 * text with the file and line where they start, for the translator; `hlsl`
 * is the HLSL a compiler needs (structs, functions, the typed globals and
 * the samplers without their sampler_state), with #line markers.
 *
 * Input bytes are decoded first: valid UTF-8 stays (a BOM is dropped), any
 * other file is Shift-JIS (CP932), as MME's own files are. Nothing points
 * into the input: everything lives in the effect's arena.
 *
 * Errors: MMD_E_BAD_STRUCTURE (syntax, #error), MMD_E_LIMIT (a cap below),
 * MMD_E_IO (an include the loader could not read), MMD_E_UNSUPPORTED (an
 * #include without a loader); err->section is "fx", err->item the line
 * (1-based, in the file named at the start of err->msg), err->msg
 * "FILE:LINE: what was expected". Each cap makes the work linear in the
 * input: a macro bomb stops at MMD_FX_MAX_TOKENS, not at memory's end.
 */
#ifndef MMD_CORE_FX_H
#define MMD_CORE_FX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/status.h"

#define MMD_FX_MAX_INCLUDE_DEPTH 16              /* nested #include */
#define MMD_FX_MAX_FILES 256                     /* files read, the root included */
#define MMD_FX_MAX_SOURCE_BYTES (16u << 20)      /* all files together */
#define MMD_FX_MAX_TOKENS (4u << 20)             /* tokens after expansion (and made by it) */
#define MMD_FX_MAX_MACRO_DEPTH 64                /* nested macro argument expansion */
#define MMD_FX_MAX_NESTING 256                   /* #if nesting, brackets, expression depth */
#define MMD_FX_MAX_ARRAY_CAST 4096               /* elements of a "(float[N])Array" written out */

/* Reads an #include: dir is the including file's folder ("." for a root
 * without one), name the file as written ('\' and '/' both occur; case may
 * differ from the disk, as effects come from Windows). On MMD_OK *data is
 * malloc'd (mmd_fx_load frees it) and *size its length; otherwise err says why. */
typedef struct mmd_fx_loader {
    mmd_status (*read)(void *user, const char *dir, const char *name, void **data, size_t *size,
                       mmd_error *err);
    void *user;
} mmd_fx_loader;

typedef struct mmd_fx_loc {
    const char *file; /* as the root was named, or its folder joined with the #include name */
    int32_t line;     /* 1-based */
} mmd_fx_loc;

typedef enum mmd_fx_value_kind {
    MMD_FX_VALUE_STRING, /* text holds the string, unquoted and unescaped */
    MMD_FX_VALUE_BOOL,   /* values[0] = 0 or 1 */
    MMD_FX_VALUE_NUMBER, /* int, float, float2..4 (values[0..value_count)) */
    MMD_FX_VALUE_OTHER,  /* anything else: text as written */
} mmd_fx_value_kind;

/* <TYPE name = value;> */
typedef struct mmd_fx_annotation {
    const char *type, *name;
    const char *text; /* the value as written (a string's contents for STRING) */
    mmd_fx_value_kind kind;
    float values[4];
    uint32_t value_count;
} mmd_fx_annotation;

/* NAME[index] = value; in a sampler_state or a pass. value is as written;
 * `Texture = <Tex>` and `Texture = (Tex)` give "Tex" with ref = true. */
typedef struct mmd_fx_state {
    const char *name;
    int32_t index; /* -1 when none */
    const char *value;
    bool ref;
    int32_t line;
} mmd_fx_state;

/* A global declaration: [storage] TYPE NAME [array] [: SEMANTIC] [<annotations>] [= init]; */
typedef struct mmd_fx_param {
    const char *storage;  /* "static const", "" when none */
    const char *type;     /* "float4x4", "texture2D", "sampler" as written */
    const char *name;
    const char *array;    /* text between [ ], NULL when not an array */
    const char *semantic; /* as written, NULL when none */
    mmd_fx_annotation *annotations;
    uint32_t annotation_count;
    const char *init;     /* initializer text, NULL when none (and for sampler_state) */
    mmd_fx_state *states; /* sampler_state { } */
    uint32_t state_count;
    mmd_fx_loc loc;
    uint32_t order;       /* where it stands among the effect's declarations (hlsl keeps this order) */
} mmd_fx_param;

/* compile PROFILE ENTRY(ARGS) */
typedef struct mmd_fx_shader {
    const char *profile; /* "vs_2_0"; NULL when the pass sets no such shader */
    const char *entry;
    const char *args;    /* text between ( ), "" when none */
} mmd_fx_shader;

typedef struct mmd_fx_pass {
    const char *name; /* "" when unnamed */
    mmd_fx_annotation *annotations;
    uint32_t annotation_count;
    mmd_fx_state *states; /* render states, in order */
    uint32_t state_count;
    mmd_fx_shader vs, ps;
    mmd_fx_loc loc;
} mmd_fx_pass;

typedef struct mmd_fx_technique {
    const char *name; /* "" when unnamed */
    mmd_fx_annotation *annotations;
    uint32_t annotation_count;
    mmd_fx_pass *passes;
    uint32_t pass_count;
    mmd_fx_loc loc;
} mmd_fx_technique;

typedef enum mmd_fx_code_kind { MMD_FX_CODE_FUNCTION, MMD_FX_CODE_STRUCT, MMD_FX_CODE_TYPEDEF } mmd_fx_code_kind;

/* A function, struct or typedef as raw HLSL text (after preprocessing). */
typedef struct mmd_fx_code {
    mmd_fx_code_kind kind;
    const char *name; /* function or struct name, "" for a typedef */
    const char *text;
    mmd_fx_loc loc;
    uint32_t order; /* as mmd_fx_param.order */
} mmd_fx_code;

/* One command of a Script string: "RenderColorTarget0=ScnMap;" gives
 * {"RenderColorTarget0", "ScnMap"}. */
typedef struct mmd_fx_script_cmd {
    const char *name, *value;
} mmd_fx_script_cmd;

typedef struct mmd_fx {
    mmd_fx_param *params; /* values and matrices, in file order */
    uint32_t param_count;
    mmd_fx_param *textures; /* texture, texture2D, textureCUBE, ... */
    uint32_t texture_count;
    mmd_fx_param *samplers; /* sampler, sampler2D, ... with their states */
    uint32_t sampler_count;
    mmd_fx_technique *techniques;
    uint32_t technique_count;
    mmd_fx_code *code;
    uint32_t code_count;
    const char *hlsl; /* the HLSL left for a compiler, with #line markers */
    bool static_init; /* hlsl ends with void MMD_FX_STATIC_INIT(), which an entry point calls first */
    uint32_t file_count;  /* files read, the root included */
    mmd_warning_list warnings; /* e.g. a technique11 skipped (item: line) */
    unsigned warning_count;
    mmd_arena *arena;
} mmd_fx;

/* The function the HLSL gives the static globals whose initializers fxc
 * runs but glslang 12.0 cannot (they call a function of the effect, or read
 * such a global): declared without initializer, assigned there in order. */
#define MMD_FX_STATIC_INIT "mmd_fx_static_init"

/* A global the effect's functions assign to (DX9's compiler allows it, the
 * value is the function's own copy; glslang refuses it): the HLSL declares
 * the uniform as MMD_FX_WRITTEN_PREFIX NAME and a static NAME copied from it. */
#define MMD_FX_WRITTEN_PREFIX "mmd_w_"

/* Parse an effect. path names the root file in errors and locations (and
 * gives the folder includes are relative to); loader may be NULL. */
mmd_status mmd_fx_load(const void *data, size_t size, const char *path, const mmd_fx_loader *loader,
                       mmd_fx **out, mmd_error *err);
void mmd_fx_free(mmd_fx *fx); /* NULL is a no-op */

/* The annotation called name (ASCII case-insensitive, as MME), NULL when none. */
const mmd_fx_annotation *mmd_fx_annotation_find(const mmd_fx_annotation *list, uint32_t count,
                                                const char *name);
/* The sampler register a declaration binds (`sampler S : register(s0);`, as
 * its semantic, ASCII case-insensitive, blanks allowed): N of register(sN),
 * 0..99; -1 when it names none (MME binds MMD's self-shadow map at s0). */
int mmd_fx_sampler_register(const mmd_fx_param *p);
/* Split a Script string ("A=B;C=D;") into commands allocated in a. Returns
 * MMD_E_BAD_VALUE (err names the command) for a command without '='. */
mmd_status mmd_fx_script_parse(const char *script, mmd_arena *a, mmd_fx_script_cmd **cmds, uint32_t *count,
                               mmd_error *err);

/* MME's place of an effect in a frame: the ScriptOrder annotation of its
 * STANDARDSGLOBAL parameter (the first parameter with that semantic), with
 * MME's names; absent, or a value MME does not know: standard. preprocess
 * effects run before the objects are drawn, standard ones with their object
 * (an object effect), postprocess ones over the finished frame (a post
 * effect: MME loads it as an accessory). ScriptClass ("object", "scene",
 * "sceneorobject") says what the effect draws, not when. */
#define MMD_FX_ORDER_LIST(X) \
    X(STANDARD, "standard")       /* with its object (the default) */ \
    X(PREPROCESS, "preprocess")   /* before the objects */ \
    X(POSTPROCESS, "postprocess") /* over the finished frame: a post effect */

typedef enum mmd_fx_order {
#define X(id, name) MMD_FX_ORDER_##id,
    MMD_FX_ORDER_LIST(X)
#undef X
    MMD_FX_ORDER_COUNT
} mmd_fx_order;

mmd_fx_order mmd_fx_script_order(const mmd_fx *fx); /* NULL: standard */
const char *mmd_fx_order_name(mmd_fx_order order);  /* "postprocess"; "" out of range */

#endif
