/* renderer/fx/select.c - MME's technique choice (select.h). */
#include "renderer/fx/select.h"

#include <stddef.h>
#include <strings.h>

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

static bool annotation_is(const mmd_fx_param *p, const char *name, const char *value)
{
    const mmd_fx_annotation *a = mmd_fx_annotation_find(p->annotations, p->annotation_count, name);
    return a && a->kind == MMD_FX_VALUE_STRING && a->text && !strcasecmp(a->text, value);
}

bool mmd_fx_is_post_effect(const mmd_fx *fx)
{
    if (mmd_fx_script_order(fx) != MMD_FX_ORDER_STANDARD)
        return true;
    for (uint32_t i = 0; i < fx->param_count; i++) {
        const mmd_fx_param *p = &fx->params[i];
        if (p->semantic && !strcasecmp(p->semantic, "STANDARDSGLOBAL") && annotation_is(p, "ScriptClass", "scene"))
            return true;
    }
    return false;
}

bool mmd_fx_technique_kind(const mmd_fx_technique *t, mmd_fx_pass_kind *kind)
{
    const mmd_fx_annotation *pass = mmd_fx_annotation_find(t->annotations, t->annotation_count, "MMDPass");
    *kind = MMD_FX_PASS_OBJECT;
    return !pass || (pass->kind == MMD_FX_VALUE_STRING && mmd_fx_pass_kind_parse(pass->text, kind));
}

int mmd_fx_select_technique(const mmd_fx *fx, mmd_fx_pass_kind kind, const mmd_fx_material_use *use)
{
    static const mmd_fx_material_use none = {0};
    use = use ? use : &none;
    for (uint32_t i = 0; fx && i < fx->technique_count; i++) {
        const mmd_fx_technique *t = &fx->techniques[i];
        mmd_fx_pass_kind k;
        if (!mmd_fx_technique_kind(t, &k))
            continue;
        if (k == kind && use_matches(t, "UseTexture", use->texture) && use_matches(t, "UseSphereMap", use->sphere) &&
            use_matches(t, "UseToon", use->toon) && use_matches(t, "UseSelfShadow", use->self_shadow))
            return (int)i;
    }
    return -1;
}
