/* renderer/cli/cmd_info.c - `mmdrender info FILE [--json]`: what a PMX/PMD model,
 * VMD/VPD motion or DirectX .x accessory contains.
 *
 * The format is told by its signature (core/sniff.h: the rows of the model,
 * motion and accessory kinds; usage and the "not a ..." message list them from
 * there). JSON keys are a contract (docs/cli.md):
 * models  {"file","format","version","name","name_en","encoding","counts":{...},
 *          "morph_types":{...},"weight_types":{...},
 *          "textures":[{"path","exists","status"(found|missing|refused|error)[,"resolved"]}],
 *          "warnings":[{"section","item","offset","what","count"}],"warning_count"}
 * motions {"file","format","version","model_name","counts":{...},"last_frame","warnings":[...],"warning_count"}
 * .x      {"file","format":"x","version","encoding","float_bits","counts":{meshes,frames,vertices (the file's),
 *          faces,triangles,materials,drawn_vertices},"normals","uvs","colors",
 *          "textures":[{"path","kind","exists","status"[,"resolved"]}],"warnings":[...],"warning_count"}
 * Bad input: "file: offset 0x.., section #i: what" on stderr, exit MMD_EXIT_INPUT.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/accessory.h"
#include "core/file.h"
#include "core/model.h"
#include "core/motion.h"
#include "core/sniff.h"
#include "core/xfile.h"
#include "renderer/base/msg.h"
#include "renderer/cli/commands.h"
#include "renderer/cli/json_out.h"
#include "renderer/image/texpath.h"

#define INFO_KINDS (MMD_KIND_MODEL | MMD_KIND_MOTION | MMD_KIND_ACCESSORY) /* what info reads */

static void usage(FILE *f)
{
    char model[64], motion[64], acc[64];
    fprintf(f,
            "usage: mmdrender info FILE [--json] [--allow-outside-assets]\n"
            "  Print what a model (%s), motion (%s) or accessory (%s)\n"
            "  contains: counts per section, morph and weight types, texture files and\n"
            "  whether they exist (models, accessories), key counts and the last frame\n"
            "  (motions).\n"
            "  --json   one JSON object on stdout instead of text\n"
            "  --allow-outside-assets  let texture paths leave the model's folder (as render)\n"
            "  Textures are looked up exactly as a render does (letter case, '\\',\n"
            "  Shift-JIS names, confined to the model's folder).\n"
            "exit codes: 0 ok, 1 usage, 2 unreadable or invalid file\n",
            mmd_sniff_exts(MMD_KIND_MODEL, model, sizeof model), mmd_sniff_exts(MMD_KIND_MOTION, motion, sizeof motion),
            mmd_sniff_exts(MMD_KIND_ACCESSORY, acc, sizeof acc));
}

/* "warnings":[{"section","item","offset","what","count"}...],"warning_count":N */
static void json_warnings(FILE *f, const mmd_warning_list *w, unsigned total)
{
    fputs(",\"warnings\":[", f);
    for (uint32_t i = 0; i < w->kind_count; i++) {
        const mmd_warning *k = &w->kinds[i];
        fputs(i ? ",{\"section\":" : "{\"section\":", f);
        mmd_json_str(f, k->section);
        fprintf(f, ",\"item\":%lld,\"offset\":%lld,\"what\":", (long long)k->item, (long long)k->offset);
        mmd_json_str(f, k->what);
        fprintf(f, ",\"count\":%u}", k->count);
    }
    fprintf(f, "],\"warning_count\":%u", total);
}

static const char *encoding_name(uint8_t e)
{
    switch (e) {
    case MMD_ENC_UTF16LE: return "utf-16le";
    case MMD_ENC_UTF8: return "utf-8";
    default: return "shift-jis";
    }
}

/* One texture through the renderer's resolver (renderer/image/texpath.h):
 * what `info` reports is what a render loads. */
typedef struct tex_state {
    mmd_status rc;       /* mmd_texpath_resolve's status */
    char resolved[4096]; /* on-disk path when found */
    char why[512];
} tex_state;

/* JSON "status" of a texture, from the resolver's status (texpath.h). */
static const char *tex_status_name(mmd_status rc)
{
    switch (rc) {
    case MMD_OK: return "found";
    case MMD_E_IO: return "missing";
    case MMD_E_UNSUPPORTED: return "refused";
    default: return "error";
    }
}

static void resolve_texture(const char *model_path, const char *tex, bool allow_outside, tex_state *ts)
{
    char dir[4096];
    mmd_error err;
    ts->resolved[0] = ts->why[0] = 0;
    if (mmd_texpath_model_dir(model_path, dir, sizeof dir) != 0) {
        ts->rc = MMD_E_BAD_VALUE;
        snprintf(ts->why, sizeof ts->why, "model path is too long");
        return;
    }
    ts->rc = mmd_texpath_resolve(dir, tex, allow_outside, ts->resolved, sizeof ts->resolved, &err);
    if (ts->rc != MMD_OK)
        snprintf(ts->why, sizeof ts->why, "%s", err.msg);
}

static void print_model(const char *path, const mmd_model *m, bool json, bool allow_outside)
{
    uint32_t mt[MMD_MORPH_TYPE_COUNT] = {0}, wt[5] = {0};
    for (uint32_t i = 0; i < m->morph_count; i++)
        if (m->morphs[i].type < MMD_MORPH_TYPE_COUNT)
            mt[m->morphs[i].type]++;
    for (uint32_t i = 0; i < m->vertex_count; i++)
        if (m->vertices[i].weight_type < 5)
            wt[m->vertices[i].weight_type]++;
    static const char *const morph_names[MMD_MORPH_TYPE_COUNT] = {
        "group", "vertex", "bone", "uv", "additional_uv1", "additional_uv2", "additional_uv3",
        "additional_uv4", "material", "flip", "impulse"};
    static const char *const weight_names[5] = {"bdef1", "bdef2", "bdef4", "sdef", "qdef"};
    const char *fmt = m->format == MMD_FORMAT_PMD ? "pmd" : "pmx";
    tex_state ts;
    if (json) {
        FILE *f = stdout;
        fputs("{\"file\":", f);
        mmd_json_str(f, path);
        fprintf(f, ",\"format\":\"%s\",\"version\":%.1f,\"name\":", fmt, (double)m->version);
        mmd_json_str(f, m->name);
        fputs(",\"name_en\":", f);
        mmd_json_str(f, m->name_en);
        fprintf(f, ",\"encoding\":\"%s\"", encoding_name(m->encoding));
        fprintf(f,
                ",\"counts\":{\"vertices\":%u,\"faces\":%u,\"textures\":%u,\"materials\":%u,\"bones\":%u,"
                "\"morphs\":%u,\"display_frames\":%u,\"rigid_bodies\":%u,\"joints\":%u,\"soft_bodies\":%u}",
                m->vertex_count, m->index_count / 3, m->texture_count, m->material_count, m->bone_count,
                m->morph_count, m->display_frame_count, m->rigid_body_count, m->joint_count, m->soft_body_count);
        fputs(",\"morph_types\":{", f);
        for (int i = 0; i < MMD_MORPH_TYPE_COUNT; i++)
            fprintf(f, "%s\"%s\":%u", i ? "," : "", morph_names[i], mt[i]);
        fputs("},\"weight_types\":{", f);
        for (int i = 0; i < 5; i++)
            fprintf(f, "%s\"%s\":%u", i ? "," : "", weight_names[i], wt[i]);
        fputs("},\"textures\":[", f);
        for (uint32_t i = 0; i < m->texture_count; i++) {
            resolve_texture(path, m->textures[i], allow_outside, &ts);
            fputs(i ? ",{\"path\":" : "{\"path\":", f);
            mmd_json_str(f, m->textures[i]);
            fprintf(f, ",\"exists\":%s,\"status\":\"%s\"", ts.rc == MMD_OK ? "true" : "false",
                    tex_status_name(ts.rc));
            if (ts.rc == MMD_OK) {
                fputs(",\"resolved\":", f);
                mmd_json_str(f, ts.resolved);
            }
            fputc('}', f);
        }
        fputc(']', f);
        json_warnings(f, &m->warning_list, m->warnings);
        fputs("}\n", f);
        return;
    }
    mmd_msg_print(stdout, "file:           %s\n", path);
    mmd_msg_print(stdout, "format:         %s %.1f (%s)\n", m->format == MMD_FORMAT_PMD ? "PMD" : "PMX",
                  (double)m->version, encoding_name(m->encoding));
    char pb[1024];
    mmd_msg_print(stdout, "name:           %s\n", mmd_printable(m->name, pb, sizeof pb));
    if (m->name_en[0])
        mmd_msg_print(stdout, "english name:   %s\n", mmd_printable(m->name_en, pb, sizeof pb));
    mmd_msg_print(stdout, "vertices:       %u (", m->vertex_count);
    for (int i = 0, first = 1; i < 5; i++)
        if (wt[i]) {
            mmd_msg_print(stdout, "%s%s %u", first ? "" : ", ", weight_names[i], wt[i]);
            first = 0;
        }
    mmd_msg_print(stdout, ")\n");
    mmd_msg_print(stdout, "faces:          %u\n", m->index_count / 3);
    mmd_msg_print(stdout, "materials:      %u\n", m->material_count);
    mmd_msg_print(stdout, "bones:          %u\n", m->bone_count);
    mmd_msg_print(stdout, "morphs:         %u", m->morph_count);
    if (m->morph_count) {
        mmd_msg_print(stdout, " (");
        for (int i = 0, first = 1; i < MMD_MORPH_TYPE_COUNT; i++)
            if (mt[i]) {
                mmd_msg_print(stdout, "%s%s %u", first ? "" : ", ", morph_names[i], mt[i]);
                first = 0;
            }
        mmd_msg_print(stdout, ")");
    }
    mmd_msg_print(stdout, "\n");
    mmd_msg_print(stdout, "display frames: %u\n", m->display_frame_count);
    mmd_msg_print(stdout, "rigid bodies:   %u\n", m->rigid_body_count);
    mmd_msg_print(stdout, "joints:         %u\n", m->joint_count);
    if (m->soft_body_count)
        mmd_msg_print(stdout, "soft bodies:    %u\n", m->soft_body_count);
    if (m->warnings) {
        mmd_msg_print(stdout, "warnings:       %u (repaired oddities)\n", m->warnings);
        mmd_msg_warnings(stdout, "  ", path, &m->warning_list);
    }
    mmd_msg_print(stdout, "textures:       %u\n", m->texture_count);
    for (uint32_t i = 0; i < m->texture_count; i++) {
        resolve_texture(path, m->textures[i], allow_outside, &ts);
        char shown[4096]; /* '\' as '/', then escaped where printed (a \xNN keeps its '\') */
        snprintf(shown, sizeof shown, "%s", m->textures[i]);
        for (char *p = shown; *p; p++)
            if (*p == '\\')
                *p = '/';
        if (ts.rc == MMD_OK)
            mmd_msg_print(stdout, "  %-40s ok (%s)\n", shown, ts.resolved);
        else
            mmd_msg_print(stdout, "  %-40s %s: %s\n", shown, ts.rc == MMD_E_UNSUPPORTED ? "REFUSED" : "MISSING",
                          ts.why);
    }
}

static void print_motion(const char *path, const mmd_motion *m, bool json)
{
    const char *fmt = m->format == MMD_MOTION_VPD ? "vpd" : "vmd";
    uint32_t ik = 0;
    for (uint32_t i = 0; i < m->property_key_count; i++)
        ik += m->property_keys[i].ik_count;
    if (json) {
        FILE *f = stdout;
        fputs("{\"file\":", f);
        mmd_json_str(f, path);
        fprintf(f, ",\"format\":\"%s\",\"version\":%d,\"model_name\":", fmt, m->version);
        mmd_json_str(f, m->model_name);
        fprintf(f,
                ",\"counts\":{\"bone\":%u,\"morph\":%u,\"camera\":%u,\"light\":%u,\"self_shadow\":%u,"
                "\"property\":%u,\"property_ik_states\":%u},\"last_frame\":%u",
                m->bone_key_count, m->morph_key_count, m->camera_key_count, m->light_key_count,
                m->shadow_key_count, m->property_key_count, ik, m->last_frame);
        json_warnings(f, &m->warning_list, m->warnings);
        fputs("}\n", f);
        return;
    }
    mmd_msg_print(stdout, "file:           %s\n", path);
    if (m->format == MMD_MOTION_VPD)
        mmd_msg_print(stdout, "format:         VPD pose\n");
    else
        mmd_msg_print(stdout, "format:         VMD v%d\n", m->version);
    char pb[1024];
    mmd_msg_print(stdout, "model name:     %s\n", mmd_printable(m->model_name, pb, sizeof pb));
    mmd_msg_print(stdout, "bone keys:      %u\n", m->bone_key_count);
    mmd_msg_print(stdout, "morph keys:     %u\n", m->morph_key_count);
    mmd_msg_print(stdout, "camera keys:    %u\n", m->camera_key_count);
    mmd_msg_print(stdout, "light keys:     %u\n", m->light_key_count);
    mmd_msg_print(stdout, "shadow keys:    %u\n", m->shadow_key_count);
    mmd_msg_print(stdout, "property keys:  %u (%u IK states)\n", m->property_key_count, ik);
    mmd_msg_print(stdout, "last frame:     %u (%.2f s at 30 fps)\n", m->last_frame, m->last_frame / 30.0);
    if (m->warnings) {
        mmd_msg_print(stdout, "warnings:       %u\n", m->warnings);
        mmd_msg_warnings(stdout, "  ", path, &m->warning_list);
    }
}

/* One texture of an accessory through the renderer's resolver; screen.bmp is
 * MMD's live screen (always there). */
static void x_texture(const char *path, const char *tex, const char *kind, bool json, bool allow_outside,
                      bool first)
{
    const char *base = strrchr(tex, '\\') ? strrchr(tex, '\\') + 1 : strrchr(tex, '/') ? strrchr(tex, '/') + 1 : tex;
    tex_state ts;
    if (!strcasecmp(base, "screen.bmp")) {
        kind = "screen";
        ts.rc = MMD_OK;
        snprintf(ts.resolved, sizeof ts.resolved, "previous frame");
    } else {
        resolve_texture(path, tex, allow_outside, &ts);
    }
    if (json) {
        fputs(first ? "{\"path\":" : ",{\"path\":", stdout);
        mmd_json_str(stdout, tex);
        printf(",\"kind\":\"%s\",\"exists\":%s,\"status\":\"%s\"", kind,
               ts.rc == MMD_OK ? "true" : "false", tex_status_name(ts.rc));
        if (ts.rc == MMD_OK) {
            fputs(",\"resolved\":", stdout);
            mmd_json_str(stdout, ts.resolved);
        }
        fputc('}', stdout);
    } else if (ts.rc == MMD_OK) {
        mmd_msg_print(stdout, "  %-40s %-10s ok (%s)\n", tex, kind, ts.resolved);
    } else {
        mmd_msg_print(stdout, "  %-40s %-10s %s: %s\n", tex, kind, ts.rc == MMD_E_UNSUPPORTED ? "REFUSED" : "MISSING",
                      ts.why);
    }
}

/* The command's printer of a file it cannot read (located: offset, section,
 * item), for mmd_cmd_info: info's contract is exit 2 for any such file. */
static int input_error(const char *path, const mmd_error *err)
{
    char buf[512];
    mmd_error_format(err, path, buf, sizeof buf);
    mmd_msg_print(stderr, "mmdrender info: %s\n", buf);
    return MMD_EXIT_INPUT;
}

/* The file's own counts: a .x says more than its mesh (x), another accessory
 * format its mesh (x NULL). */
static void accessory_head(const char *path, const mmd_sniff_row *f, const mmd_accessory_mesh *m,
                           const mmd_xmesh *x, bool json)
{
    static const char *const enc[] = {"text", "binary", "tzip", "bzip"};
    uint32_t ntex = 0;
    for (uint32_t i = 0; i < m->material_count; i++)
        ntex += (m->materials[i].texture[0] != 0) + (m->materials[i].sphere[0] != 0);
    if (json) {
        fputs("{\"file\":", stdout);
        mmd_json_str(stdout, path);
        printf(",\"format\":\"%s\"", f->name);
        if (x)
            printf(",\"version\":%u,\"encoding\":\"%s\",\"float_bits\":%u,\"counts\":{\"meshes\":%u,"
                   "\"frames\":%u,\"vertices\":%u,\"faces\":%u,", x->version, enc[x->encoding & 3], x->float_bits,
                   x->mesh_count, x->frame_count, x->file_vertex_count, x->face_count);
        else
            fputs(",\"counts\":{", stdout);
        printf("\"triangles\":%u,\"materials\":%u,\"drawn_vertices\":%u}", m->index_count / 3, m->material_count,
               m->vertex_count);
        if (x)
            printf(",\"normals\":%s,\"uvs\":%s,\"colors\":%s", x->has_normals ? "true" : "false",
                   x->has_uvs ? "true" : "false", x->has_colors ? "true" : "false");
        fputs(",\"textures\":[", stdout);
        return;
    }
    mmd_msg_print(stdout, "file:           %s\n", path);
    if (x) {
        mmd_msg_print(stdout, "format:         DirectX .x %u.%02u (%s, %u-bit floats)\n", x->version / 100,
                      x->version % 100, enc[x->encoding & 3], x->float_bits);
        mmd_msg_print(stdout, "meshes:         %u (in %u frames)\n", x->mesh_count, x->frame_count);
        mmd_msg_print(stdout, "vertices:       %u (%u drawn)%s%s%s\n", x->file_vertex_count, m->vertex_count,
                      x->has_normals ? "" : " (normals computed)", x->has_uvs ? "" : " (no uvs)",
                      x->has_colors ? " (vertex colours)" : "");
        mmd_msg_print(stdout, "faces:          %u (%u triangles)\n", x->face_count, m->index_count / 3);
    } else {
        mmd_msg_print(stdout, "format:         %s accessory\n", f->label);
        mmd_msg_print(stdout, "vertices:       %u drawn\n", m->vertex_count);
        mmd_msg_print(stdout, "triangles:      %u\n", m->index_count / 3);
    }
    mmd_msg_print(stdout, "materials:      %u\n", m->material_count);
    if (m->warnings)
        mmd_msg_print(stdout, "warnings:       %u (repaired oddities)\n", m->warnings);
    mmd_msg_print(stdout, "textures:       %u\n", ntex);
}

static void print_accessory(const char *path, const mmd_sniff_row *f, const mmd_accessory_mesh *m,
                            const mmd_xmesh *x, bool json, bool allow_outside)
{
    accessory_head(path, f, m, x, json);
    bool first = true;
    for (uint32_t i = 0; i < m->material_count; i++) {
        const mmd_accessory_material *mat = &m->materials[i];
        if (mat->texture[0]) {
            x_texture(path, mat->texture, "texture", json, allow_outside, first);
            first = false;
        }
        if (mat->sphere[0]) {
            x_texture(path, mat->sphere, mat->sphere_mode == 2 ? "sphere_add" : "sphere_mul", json, allow_outside,
                      first);
            first = false;
        }
    }
    if (json) {
        fputc(']', stdout);
        mmd_warning one = {.section = f->name, .item = -1, .offset = -1,
                           .what = "degenerate faces or bad text repaired", .count = m->warnings};
        mmd_warning_list w;
        memset(&w, 0, sizeof w);
        if (m->warnings) {
            w.kinds[0] = one;
            w.kind_count = 1;
        }
        json_warnings(stdout, &w, m->warnings);
        fputs("}\n", stdout);
    }
}

/* A .x through its reader (info prints what the file said), any other
 * accessory format through its row's. */
static mmd_status info_accessory(const char *path, const mmd_sniff_row *f, const void *data, size_t size, bool json,
                                 bool allow_outside, mmd_error *err)
{
    mmd_xmesh *x = NULL;
    mmd_accessory_mesh *m = NULL;
    mmd_status st = f->id == MMD_FILE_X ? mmd_x_load(data, size, &x, err) : f->load_accessory(data, size, &m, err);
    if (st != MMD_OK)
        return st;
    print_accessory(path, f, x ? &x->mesh : m, x, json, allow_outside);
    mmd_accessory_mesh_free(x ? &x->mesh : m);
    return MMD_OK;
}

int mmd_cmd_info(int argc, char **argv)
{
    if (mmd_project_arg(argc, argv) > 0)
        return mmd_cmd_info_project(argc, argv); /* cmd_info_project.c */
    const char *path = NULL;
    bool json = false, allow_outside = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--json")) {
            json = true;
        } else if (!strcmp(a, "--allow-outside-assets")) {
            allow_outside = true;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return MMD_EXIT_OK;
        } else if (a[0] == '-' && a[1]) {
            mmd_msg_print(stderr, "mmdrender info: unknown option '%s'\n", a);
            usage(stderr);
            return MMD_EXIT_USAGE;
        } else if (path) {
            mmd_msg_print(stderr, "mmdrender info: one FILE only ('%s' and '%s')\n", path, a);
            return MMD_EXIT_USAGE;
        } else {
            path = a;
        }
    }
    if (!path) {
        mmd_msg_print(stderr, "mmdrender info: missing FILE\n");
        usage(stderr);
        return MMD_EXIT_USAGE;
    }
    mmd_error err;
    memset(&err, 0, sizeof err);
    err.offset = err.item = -1;
    void *data = NULL;
    size_t size = 0;
    if (mmd_file_read(path, &data, &size, &err) != MMD_OK)
        return input_error(path, &err);
    int rc = MMD_EXIT_OK;
    const mmd_sniff_row *f = mmd_sniff(data, size);
    unsigned kind = f ? f->kind : 0;
    if (kind == MMD_KIND_MODEL) {
        mmd_model *m = NULL;
        if (mmd_model_load(data, size, &m, &err) != MMD_OK) {
            rc = input_error(path, &err);
        } else {
            print_model(path, m, json, allow_outside);
            mmd_model_free(m);
        }
    } else if (kind == MMD_KIND_MOTION) {
        mmd_motion *m = NULL;
        if (mmd_motion_load(data, size, &m, &err) != MMD_OK) {
            rc = input_error(path, &err);
        } else {
            print_motion(path, m, json);
            mmd_motion_free(m);
        }
    } else if (kind == MMD_KIND_ACCESSORY) {
        if (info_accessory(path, f, data, size, json, allow_outside, &err) != MMD_OK)
            rc = input_error(path, &err);
    } else {
        char known[128];
        mmd_error_set(&err, MMD_E_BAD_MAGIC, NULL, -1, 0, "not a %s file (unknown signature)",
                      mmd_sniff_labels(INFO_KINDS, known, sizeof known));
        rc = input_error(path, &err);
    }
    free(data);
    return rc;
}
