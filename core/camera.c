/* core/camera.c - camera/light/self-shadow tracks and the one LH -> GL
 * conversion (DESIGN A.3, A.5, A.6). */
#include "core/camera.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cglm/cglm.h>

#include "core/interp.h"

typedef struct cam_key {
    float target[3], rot[3], distance, fov;
    bool ortho;
    mmd_curve curve[6];
} cam_key;

struct mmd_camera_track {
    uint32_t *cam_frames, *light_frames, *shadow_frames;
    cam_key *cam;
    mmd_light_key *light;
    mmd_shadow_key *shadow;
    uint32_t ncam, nlight, nshadow;
    uint32_t ccur, lcur, scur;
    uint32_t last_frame;
};

typedef struct ref { uint32_t frame, seq; } ref;

static int ref_cmp(const void *pa, const void *pb)
{
    const ref *x = pa, *y = pb;
    if (x->frame != y->frame)
        return x->frame < y->frame ? -1 : 1;
    return x->seq < y->seq ? -1 : (x->seq > y->seq);
}

/* Sort keys by frame (stable), drop earlier duplicates; writes the order to idx. */
static uint32_t sort_unique(const void *keys, size_t stride, uint32_t n, uint32_t *idx, uint32_t *frames)
{
    ref *r = malloc((n ? n : 1) * sizeof *r);
    if (!r)
        return UINT32_MAX;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t f;
        memcpy(&f, (const char *)keys + i * stride, sizeof f); /* frame is the first field */
        r[i] = (ref){f, i};
    }
    qsort(r, n, sizeof *r, ref_cmp);
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (i + 1 < n && r[i + 1].frame == r[i].frame)
            continue;
        idx[m] = r[i].seq;
        frames[m++] = r[i].frame;
    }
    free(r);
    return m;
}

void mmd_camera_track_free(mmd_camera_track *c)
{
    if (!c)
        return;
    free(c->cam_frames), free(c->light_frames), free(c->shadow_frames);
    free(c->cam), free(c->light), free(c->shadow);
    free(c);
}

mmd_status mmd_camera_track_create(const mmd_motion *mo, mmd_camera_track **out, mmd_error *err)
{
    mmd_camera_track *c = calloc(1, sizeof *c);
    if (!c)
        return mmd_error_set(err, MMD_E_NOMEM, "camera", -1, -1, "no memory");
    uint32_t nc = mo ? mo->camera_key_count : 0, nl = mo ? mo->light_key_count : 0;
    uint32_t ns = mo ? mo->shadow_key_count : 0;
    uint32_t nmax = nc > nl ? nc : nl;
    nmax = nmax > ns ? nmax : ns;
    uint32_t *idx = malloc((nmax ? nmax : 1) * sizeof *idx);
    c->cam_frames = malloc((nc ? nc : 1) * sizeof *c->cam_frames);
    c->light_frames = malloc((nl ? nl : 1) * sizeof *c->light_frames);
    c->shadow_frames = malloc((ns ? ns : 1) * sizeof *c->shadow_frames);
    c->cam = malloc((nc ? nc : 1) * sizeof *c->cam);
    c->light = malloc((nl ? nl : 1) * sizeof *c->light);
    c->shadow = malloc((ns ? ns : 1) * sizeof *c->shadow);
    if (!idx || !c->cam_frames || !c->light_frames || !c->shadow_frames || !c->cam || !c->light || !c->shadow)
        goto nomem;
    if (nc) {
        uint32_t m = sort_unique(mo->camera_keys, sizeof *mo->camera_keys, nc, idx, c->cam_frames);
        if (m == UINT32_MAX)
            goto nomem;
        for (uint32_t i = 0; i < m; i++) {
            const mmd_camera_key *k = &mo->camera_keys[idx[i]];
            cam_key *d = &c->cam[i];
            memcpy(d->target, k->target, sizeof d->target);
            memcpy(d->rot, k->rotation, sizeof d->rot);
            d->distance = k->distance;
            d->fov = (float)k->fov;
            d->ortho = k->perspective != 0;
            for (int g = 0; g < 6; g++)
                d->curve[g] = mmd_curve_camera(k->interp, g);
            if (k->frame > c->last_frame)
                c->last_frame = k->frame;
        }
        c->ncam = m;
    }
    if (nl) {
        uint32_t m = sort_unique(mo->light_keys, sizeof *mo->light_keys, nl, idx, c->light_frames);
        if (m == UINT32_MAX)
            goto nomem;
        for (uint32_t i = 0; i < m; i++) {
            c->light[i] = mo->light_keys[idx[i]];
            if (c->light[i].frame > c->last_frame)
                c->last_frame = c->light[i].frame;
        }
        c->nlight = m;
    }
    if (ns) {
        uint32_t m = sort_unique(mo->shadow_keys, sizeof *mo->shadow_keys, ns, idx, c->shadow_frames);
        if (m == UINT32_MAX)
            goto nomem;
        for (uint32_t i = 0; i < m; i++) {
            c->shadow[i] = mo->shadow_keys[idx[i]];
            if (c->shadow[i].frame > c->last_frame)
                c->last_frame = c->shadow[i].frame;
        }
        c->nshadow = m;
    }
    free(idx);
    *out = c;
    return MMD_OK;
nomem:
    free(idx);
    mmd_camera_track_free(c);
    return mmd_error_set(err, MMD_E_NOMEM, "camera", -1, -1, "no memory for %u camera keys", nc);
}

bool mmd_camera_track_has_camera(const mmd_camera_track *c) { return c && c->ncam > 0; }
bool mmd_camera_track_has_light(const mmd_camera_track *c) { return c && c->nlight > 0; }
uint32_t mmd_camera_track_last_frame(const mmd_camera_track *c) { return c ? c->last_frame : 0; }

static void cam_set(mmd_camera_state *o, const cam_key *k)
{
    memcpy(o->target, k->target, sizeof o->target);
    memcpy(o->rotation, k->rot, sizeof o->rotation);
    o->distance = k->distance;
    o->fov = k->fov;
    o->ortho = k->ortho;
}

void mmd_camera_sample(mmd_camera_track *c, double t, mmd_camera_state *out)
{
    memset(out, 0, sizeof *out);
    out->target[1] = 10.0f;
    out->distance = -45.0f;
    out->fov = 30.0f;
    if (c && c->ncam) {
        int32_t i = mmd_key_find(c->cam_frames, c->ncam, t, &c->ccur);
        if (i < 0 || (uint32_t)i + 1 >= c->ncam) {
            cam_set(out, &c->cam[i < 0 ? 0 : i]);
        } else {
            const cam_key *ka = &c->cam[i], *kb = &c->cam[i + 1];
            double fa = c->cam_frames[i], fb = c->cam_frames[i + 1];
            cam_set(out, ka);
            if (fb - fa > 1.0) { /* keys <= 1 frame apart are cuts: hold A */
                double s = (t - fa) / (fb - fa);
                for (int a = 0; a < 3; a++) {
                    double y = mmd_bezier(&kb->curve[a], s);
                    out->target[a] = (float)(ka->target[a] + (kb->target[a] - ka->target[a]) * y);
                }
                glm_vec3_lerp((float *)ka->rot, (float *)kb->rot, (float)mmd_bezier(&kb->curve[3], s), out->rotation);
                double yd = mmd_bezier(&kb->curve[4], s), yf = mmd_bezier(&kb->curve[5], s);
                out->distance = (float)(ka->distance + (kb->distance - ka->distance) * yd);
                out->fov = (float)(ka->fov + (kb->fov - ka->fov) * yf);
            }
        }
    }
    mmd_camera_derive(out);
}

void mmd_light_sample(mmd_camera_track *c, double t, mmd_light_state *out)
{
    float g = 154.0f / 255.0f;
    out->color[0] = out->color[1] = out->color[2] = g;
    out->direction[0] = -0.5f, out->direction[1] = -1.0f, out->direction[2] = 0.5f;
    if (!c || !c->nlight)
        return;
    int32_t i = mmd_key_find(c->light_frames, c->nlight, t, &c->lcur);
    if (i < 0 || (uint32_t)i + 1 >= c->nlight) {
        const mmd_light_key *k = &c->light[i < 0 ? 0 : i];
        memcpy(out->color, k->color, sizeof out->color);
        memcpy(out->direction, k->direction, sizeof out->direction);
        return;
    }
    const mmd_light_key *ka = &c->light[i], *kb = &c->light[i + 1];
    float s = (float)((t - ka->frame) / ((double)kb->frame - ka->frame));
    glm_vec3_lerp((float *)ka->color, (float *)kb->color, s, out->color);
    glm_vec3_lerp((float *)ka->direction, (float *)kb->direction, s, out->direction);
}

void mmd_shadow_sample(mmd_camera_track *c, double t, mmd_shadow_state *out)
{
    out->mode = 1;
    out->distance = (10000.0f - 8875.0f) * 1e-5f;
    if (!c || !c->nshadow)
        return;
    int32_t i = mmd_key_find(c->shadow_frames, c->nshadow, t, &c->scur);
    const mmd_shadow_key *k = &c->shadow[i < 0 ? 0 : i];
    out->mode = k->mode <= 2 ? k->mode : 1;
    out->distance = k->distance;
}

/* R = Ry(-ry) · Rx(-rx) · Rz(-rz) (LH, column vectors): forward R·(0,0,1) is
 * column 2, up R·(0,1,0) column 1. cglm's rotations are the textbook ones. */
static void cam_rotation(const float rot[3], mat4 r)
{
    glm_mat4_identity(r);
    glm_rotate_y(r, -rot[1], r);
    glm_rotate_x(r, -rot[0], r);
    glm_rotate_z(r, -rot[2], r);
}

void mmd_camera_derive(mmd_camera_state *s)
{
    mat4 r;
    cam_rotation(s->rotation, r);
    glm_vec3_scale(r[2], s->distance, s->eye); /* eye = target + R·(0,0,distance) */
    glm_vec3_add(s->target, s->eye, s->eye);
    glm_vec3_copy(r[1], s->up);
}

/* The GL view: in MMD's LH space a point p is at R^T (p - eye) from the
 * camera, eye = target + R (0,0,distance), so at R^T p - R^T target -
 * (0,0,distance), computed in that form (no eye round trip, which costs
 * float bits). GL mirrors Z on both sides (DESIGN A.6): the world is
 * mirrored and the camera looks down -Z, view_gl = M view_lh M with
 * M = diag(1,1,-1), which negates the entries with one index 2. */
static void cam_view(const mmd_camera_state *s, mat4 v)
{
    mat4 r;
    cam_rotation(s->rotation, r);
    glm_mat4_transpose_to(r, v);
    glm_mat4_mulv3(v, (float *)s->target, 0.0f, v[3]);
    glm_vec3_negate(v[3]);
    v[3][2] -= s->distance;
    for (int col = 0; col < 4; col++)
        for (int row = 0; row < 3; row++)
            if ((col == 2) != (row == 2))
                v[col][row] = -v[col][row];
}

void mmd_camera_matrices(const mmd_camera_state *s, float aspect, float view[16], float proj[16])
{
    cam_view(s, (vec4 *)view);

    float fov = glm_rad(s->fov);
    if (!(fov > 0.0f) || fov >= GLM_PIf)
        fov = glm_rad(30.0f);
    if (!(aspect > 0))
        aspect = 1.0f;
    const float n = 0.5f, fa = 10000.0f;
    if (!s->ortho) {
        glm_perspective(fov, aspect, n, fa, (vec4 *)proj);
    } else {
        float h = 2.0f * fabsf(s->distance) * tanf(fov / 2), w = h * aspect;
        if (!(h > 0))
            h = 1, w = aspect;
        glm_ortho(-w / 2, w / 2, -h / 2, h / 2, -fa, fa, (vec4 *)proj);
    }
}
