/* core/interp.h - VMD key interpolation: Bezier curves, slerp, key lookup.
 *
 * A curve is MMD's cubic Bezier from (0,0) to (1,1) with control points
 * (x1,y1), (x2,y2) in 0..1 (bytes / 127). mmd_bezier solves x(tau) = s exactly
 * (Newton with a bisection fallback, in double) and returns y(tau).
 */
#ifndef MMD_CORE_INTERP_H
#define MMD_CORE_INTERP_H

#include <stdbool.h>
#include <stdint.h>

typedef struct mmd_curve {
    float x1, y1, x2, y2;
    bool linear;            /* x1 == y1 && x2 == y2: y = s */
} mmd_curve;

/* From raw 0..127 bytes. */
mmd_curve mmd_curve_make(uint8_t x1, uint8_t y1, uint8_t x2, uint8_t y2);
/* y for progress s in [0,1] (clamped). */
double mmd_bezier(const mmd_curve *c, double s);

/* Bone interpolation block (64 bytes, DESIGN A.2): channel c (0 X, 1 Y, 2 Z,
 * 3 rotation) read from row c (bytes 16c+0, +4, +8, +12). */
mmd_curve mmd_curve_bone(const uint8_t interp[64], int channel);
/* True when the key's row-0 bytes 2,3 are 0x63,0x0F (physics off). */
bool mmd_interp_physics_off(const uint8_t interp[64]);
/* Camera block (24 bytes, DESIGN A.3): curve g in X,Y,Z,rot,dist,fov, [x1,x2,y1,y2]. */
mmd_curve mmd_curve_camera(const uint8_t interp[24], int g);

/* Shortest-arc slerp of unit quaternions (x,y,z,w), result normalised. */
void mmd_quat_slerp(const float a[4], const float b[4], float t, float out[4]);

/* Key lookup over sorted frames[0..n): returns i such that frames[i] <= t <
 * frames[i+1] (i = n-1 at or after the last key, i = -1 before the first).
 * *cursor is a hint updated in place: sequential t is O(1), jumps binary-search. */
int32_t mmd_key_find(const uint32_t *frames, uint32_t n, double t, uint32_t *cursor);

#endif
