/* renderer/fx/select.c - MME's technique choice (select.h). */
#include "renderer/fx/select.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/arena.h"

static const char *const k_kind_names[MMD_FX_PASS_COUNT] = {
#define X(id, name) name,
    MMD_FX_PASS_LIST(X)
#undef X
};

const char *mmd_fx_pass_kind_name(mmd_fx_pass_kind kind)
{
    return (unsigned)kind < MMD_FX_PASS_COUNT ? k_kind_names[kind] : "";
}

bool mmd_fx_pass_kind_parse(const char *name, mmd_fx_pass_kind *kind)
{
    for (int k = 0; name && k < MMD_FX_PASS_COUNT; k++)
        if (!strcasecmp(name, k_kind_names[k])) {
            *kind = (mmd_fx_pass_kind)k;
            return true;
        }
    return false;
}

/* The annotation's bool (a bool, or a number not 0); absent: matches. */
static bool use_matches(const mmd_fx_technique *t, const char *name, bool have)
{
    const mmd_fx_annotation *a = mmd_fx_annotation_find(t->annotations, t->annotation_count, name);
    if (!a)
        return true;
    bool want = (a->kind == MMD_FX_VALUE_BOOL || a->kind == MMD_FX_VALUE_NUMBER) && a->value_count > 0
                    ? a->values[0] != 0.0f
                    : !strcasecmp(a->text ? a->text : "", "true");
    return want == have;
}

/* A parameter with semantic STANDARDSGLOBAL whose ScriptClass is value. */
static bool script_class_is(const mmd_fx *fx, const char *value)
{
    for (uint32_t i = 0; i < fx->param_count; i++) {
        const mmd_fx_param *p = &fx->params[i];
        const mmd_fx_annotation *a = mmd_fx_annotation_find(p->annotations, p->annotation_count, "ScriptClass");
        if (p->semantic && !strcasecmp(p->semantic, "STANDARDSGLOBAL") && a && a->kind == MMD_FX_VALUE_STRING &&
            a->text && !strcasecmp(a->text, value))
            return true;
    }
    return false;
}

bool mmd_fx_is_post_effect(const mmd_fx *fx)
{
    return mmd_fx_script_order(fx) != MMD_FX_ORDER_STANDARD || script_class_is(fx, "scene");
}

/* A technique's MMDPass: absent or "" (an object technique, after the named
 * ones), a kind MME knows, or neither (never chosen). */
typedef enum pass_key { KEY_UNKNOWN, KEY_KIND, KEY_UNNAMED } pass_key;

static pass_key technique_key(const mmd_fx_technique *t, mmd_fx_pass_kind *kind)
{
    const mmd_fx_annotation *pass = mmd_fx_annotation_find(t->annotations, t->annotation_count, "MMDPass");
    *kind = MMD_FX_PASS_OBJECT;
    if (!pass || (pass->kind == MMD_FX_VALUE_STRING && pass->text && !pass->text[0]))
        return KEY_UNNAMED;
    return pass->kind == MMD_FX_VALUE_STRING && mmd_fx_pass_kind_parse(pass->text, kind) ? KEY_KIND : KEY_UNKNOWN;
}

bool mmd_fx_technique_kind(const mmd_fx_technique *t, mmd_fx_pass_kind *kind)
{
    return technique_key(t, kind) != KEY_UNKNOWN;
}

/* One item of a Subset list, [s, end): its range of material indices, as
 * nanoem reads it (cut at its first '-', each side read as strtol does; an
 * item's first 63 characters); *lo > *hi when it names none. */
static void subset_item(const char *s, const char *end, long count, long *lo, long *hi)
{
    char buf[64];
    size_t n = (size_t)(end - s) < sizeof buf - 1 ? (size_t)(end - s) : sizeof buf - 1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    char *dash = strchr(buf, '-'), *stop;
    *lo = 1, *hi = 0;
    if (!dash) {
        long v = strtol(buf, &stop, 10);
        if (stop != buf && v >= 0 && v < count)
            *lo = *hi = v;
        return;
    }
    *dash = '\0';
    long a = strtol(buf, NULL, 10), b = strtol(dash + 1, &stop, 10);
    if (a < count && stop == dash + 1) /* "a-": to the last material */
        b = count - 1;
    a = a < 0 ? 0 : a > count - 1 ? count - 1 : a;
    b = b < 0 ? 0 : b > count - 1 ? count - 1 : b;
    if (b > 0 && a > b) { /* reversed ends swapped (an end of 0 is not: nanoem's rule) */
        long t = a;
        a = b, b = t;
    }
    *lo = a, *hi = b;
}

bool mmd_fx_subset_has(const char *subset, uint32_t material, uint32_t count)
{
    bool any = false;
    for (const char *s = subset; s && *s && count > 0;) {
        const char *comma = strchr(s, ',');
        const char *end = comma ? comma : s + strlen(s);
        long lo, hi;
        subset_item(s, end, (long)count, &lo, &hi);
        if (lo <= hi && (long)material >= lo && (long)material <= hi)
            return true;
        any |= lo <= hi;
        s = comma ? comma + 1 : end;
    }
    return !any;
}

/* Whether text holds word (ASCII case-insensitive): the cheap test before a
 * Script is split (the hook asks per material and pass). */
static bool mentions(const char *text, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = text; *p; p++)
        if (!strncasecmp(p, word, n))
            return true;
    return false;
}

/* Whether a technique's Script has a ScriptExternal command (nanoem's
 * hasScriptExternal: a sceneorobject effect draws its scene part from the
 * first material only). */
static bool has_script_external(const mmd_fx *fx)
{
    bool found = false;
    mmd_arena *a = NULL;
    for (uint32_t i = 0; i < fx->technique_count && !found; i++) {
        const mmd_fx_technique *t = &fx->techniques[i];
        const mmd_fx_annotation *sc = mmd_fx_annotation_find(t->annotations, t->annotation_count, "Script");
        mmd_fx_script_cmd *cmds = NULL;
        uint32_t n = 0;
        if (!sc || sc->kind != MMD_FX_VALUE_STRING || !sc->text || !mentions(sc->text, "ScriptExternal") ||
            !(a = a ? a : mmd_arena_create()))
            continue;
        if (mmd_fx_script_parse(sc->text, a, &cmds, &n, NULL) != MMD_OK)
            n = 0; /* a broken Script: the runtime refuses the technique */
        for (uint32_t k = 0; k < n && !found; k++)
            found = !strcasecmp(cmds[k].name, "ScriptExternal");
    }
    mmd_arena_destroy(a);
    return found;
}

static bool technique_matches(const mmd_fx_technique *t, const mmd_fx_select_query *q)
{
    const mmd_fx_annotation *sub = mmd_fx_annotation_find(t->annotations, t->annotation_count, "Subset");
    const char *subset = sub && sub->kind == MMD_FX_VALUE_STRING ? sub->text : NULL;
    return mmd_fx_subset_has(subset, q->material, q->material_count) &&
           use_matches(t, "UseTexture", q->use.texture) && use_matches(t, "UseSphereMap", q->use.sphere) &&
           use_matches(t, "UseToon", q->use.toon) && use_matches(t, "UseSelfShadow", q->use.self_shadow);
}

/* The first technique in file order with the key (and kind) that matches q. */
static int first_of(const mmd_fx *fx, pass_key key, mmd_fx_pass_kind kind, const mmd_fx_select_query *q)
{
    for (uint32_t i = 0; i < fx->technique_count; i++) {
        mmd_fx_pass_kind k;
        pass_key tk = technique_key(&fx->techniques[i], &k);
        if (tk == key && (key == KEY_UNNAMED || k == kind) && technique_matches(&fx->techniques[i], q))
            return (int)i;
    }
    return MMD_FX_SELECT_BUILTIN;
}

int mmd_fx_select_technique(const mmd_fx *fx, const mmd_fx_select_query *q)
{
    if (!fx || !q)
        return MMD_FX_SELECT_BUILTIN;
    if (q->hidden || (q->material > 0 && has_script_external(fx)))
        return MMD_FX_SELECT_NOTHING; /* nanoem: no technique and no fallback either */
    if (q->kind == MMD_FX_PASS_ZPLOT && script_class_is(fx, "scene"))
        return MMD_FX_SELECT_BUILTIN; /* nanoem's validateTechnique */
    int t = first_of(fx, KEY_KIND, q->kind, q);
    if (t < 0 && q->kind == MMD_FX_PASS_OBJECT_SS) /* only object techniques: they draw with the self-shadow */
        t = first_of(fx, KEY_KIND, MMD_FX_PASS_OBJECT, q);
    /* a technique without MMDPass is an object technique (MME's reference as
     * MikuMikuFlex reads it; nanoem also offers it to edge, shadow and zplot) */
    if (t < 0 && (q->kind == MMD_FX_PASS_OBJECT || q->kind == MMD_FX_PASS_OBJECT_SS))
        t = first_of(fx, KEY_UNNAMED, q->kind, q);
    return t;
}
