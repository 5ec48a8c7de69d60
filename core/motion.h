/* core/motion.h - VMD motions and VPD poses in memory.
 *
 * A VPD pose loads into the same struct as bone and morph keys at frame 0
 * (format MMD_MOTION_VPD). Keys keep the file order; samplers sort copies.
 * Names are UTF-8; raw_name keeps the original Shift-JIS bytes (NUL padded)
 * so binding can compare byte-wise the way MMD does (names cut at 15 bytes).
 */
#ifndef MMD_CORE_MOTION_H
#define MMD_CORE_MOTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/status.h"

#define MMD_MAX_MOTION_KEYS (32u * 1024u * 1024u)

typedef enum mmd_motion_format { MMD_MOTION_VMD = 0, MMD_MOTION_VPD = 1 } mmd_motion_format;

typedef struct mmd_bone_key {
    char *name;
    uint8_t raw_name[16];   /* 15 bytes + NUL */
    uint32_t frame;
    float position[3];      /* offset from rest, LH */
    float rotation[4];      /* quaternion x,y,z,w, LH */
    uint8_t interp[64];     /* raw block, DESIGN A.2 */
} mmd_bone_key;

typedef struct mmd_morph_key {
    char *name;
    uint8_t raw_name[16];
    uint32_t frame;
    float weight;
} mmd_morph_key;

typedef struct mmd_camera_key {
    uint32_t frame;
    float distance;         /* normally negative */
    float target[3];
    float rotation[3];      /* radians: x pitch, y yaw, z roll */
    uint8_t interp[24];     /* raw block, DESIGN A.3 */
    uint32_t fov;           /* degrees, vertical */
    uint8_t perspective;    /* raw byte: 0 = perspective */
} mmd_camera_key;

typedef struct mmd_light_key {
    uint32_t frame;
    float color[3];
    float direction[3];
} mmd_light_key;

typedef struct mmd_shadow_key {
    uint32_t frame;
    uint8_t mode;           /* 0 off, 1 mode1, 2 mode2 */
    float distance;         /* (10000 - UI value) * 1e-5 */
} mmd_shadow_key;

typedef struct mmd_ik_state {
    char *name;
    uint8_t raw_name[21];
    bool enabled;
} mmd_ik_state;

typedef struct mmd_property_key {
    uint32_t frame;
    bool visible;
    mmd_ik_state *ik;
    uint32_t ik_count;
} mmd_property_key;

typedef struct mmd_motion {
    uint8_t format;         /* mmd_motion_format */
    int version;            /* VMD: 1 (old 10-byte name) or 2 */
    char *model_name;       /* UTF-8 */
    uint8_t raw_model_name[21];
    mmd_bone_key *bone_keys;         uint32_t bone_key_count;
    mmd_morph_key *morph_keys;       uint32_t morph_key_count;
    mmd_camera_key *camera_keys;     uint32_t camera_key_count;
    mmd_light_key *light_keys;       uint32_t light_key_count;
    mmd_shadow_key *shadow_keys;     uint32_t shadow_key_count;
    mmd_property_key *property_keys; uint32_t property_key_count;
    uint32_t last_frame;    /* largest frame of any key, 0 when empty */
    unsigned warnings;
    mmd_warning_list warning_list; /* the same repairs, one entry per kind (core/status.h) */
    mmd_arena *arena;
} mmd_motion;

mmd_status mmd_vmd_load(const void *data, size_t size, mmd_motion **out, mmd_error *err);
mmd_status mmd_vpd_load(const void *data, size_t size, mmd_motion **out, mmd_error *err);
/* By content: VMD magic, else "Vocaloid Pose Data file" text. */
mmd_status mmd_motion_load(const void *data, size_t size, mmd_motion **out, mmd_error *err);
mmd_status mmd_motion_load_file(const char *path, mmd_motion **out, mmd_error *err);
void mmd_motion_free(mmd_motion *m);

#endif
