/* core/camera.h - camera, light and self-shadow tracks from a VMD.
 *
 * MMD's camera lives in the left-handed space; mmd_camera_matrices is the one
 * documented place where it becomes OpenGL's right-handed space (mirror Z,
 * DESIGN A.6). Model data is mirrored the same way by the renderer using
 * mmd_lh_to_gl below.
 */
#ifndef MMD_CORE_CAMERA_H
#define MMD_CORE_CAMERA_H

#include <stdbool.h>
#include <stdint.h>

#include "core/motion.h"
#include "core/status.h"

typedef struct mmd_camera_state {
    float target[3];     /* LH */
    float rotation[3];   /* radians */
    float distance;      /* normally negative */
    float fov;           /* degrees, vertical */
    bool ortho;
    float eye[3], up[3]; /* LH, derived */
} mmd_camera_state;

typedef struct mmd_light_state {
    float color[3];
    float direction[3];  /* LH, from the light */
} mmd_light_state;

typedef struct mmd_shadow_state {
    int mode;            /* 0 off, 1, 2 */
    float distance;      /* VMD value (10000 - UI) * 1e-5 */
} mmd_shadow_state;

typedef struct mmd_camera_track mmd_camera_track;

/* motion may be NULL (defaults: target (0,10,0), distance -45, fov 30,
 * light 154/255 grey from (-0.5,-1,0.5), shadow mode 1 distance 0.01125). */
mmd_status mmd_camera_track_create(const mmd_motion *motion, mmd_camera_track **out, mmd_error *err);
void mmd_camera_track_free(mmd_camera_track *c);
bool mmd_camera_track_has_camera(const mmd_camera_track *c);
bool mmd_camera_track_has_light(const mmd_camera_track *c);
uint32_t mmd_camera_track_last_frame(const mmd_camera_track *c);

void mmd_camera_sample(mmd_camera_track *c, double t, mmd_camera_state *out);
void mmd_light_sample(mmd_camera_track *c, double t, mmd_light_state *out);
void mmd_shadow_sample(mmd_camera_track *c, double t, mmd_shadow_state *out);

/* Fill eye/up from target/rotation/distance (LH). */
void mmd_camera_derive(mmd_camera_state *s);
/* GL (right-handed, column-major) view and projection for aspect = w/h. */
void mmd_camera_matrices(const mmd_camera_state *s, float aspect, float view[16], float proj[16]);
/* LH point/vector -> GL: z negated. Quaternion (x,y,z,w) -> (-x,-y,z,w). */
static inline void mmd_lh_to_gl(const float in[3], float out[3]) { out[0] = in[0]; out[1] = in[1]; out[2] = -in[2]; }

#endif
