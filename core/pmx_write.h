/* core/pmx_write.h - PMX writer and in-memory model builders (tests, fixture and demo generators).
 *
 *   mmd_model *m = mmd_model_new();                 empty PMX 2.0 UTF-16LE model with its arena
 *   mmd_bone *b = mmd_model_add_bones(m, 3);         arrays with the defaults the parser produces
 *   b[1].parent = 0; b[1].name = mmd_model_str(m, "arm");
 *   uint8_t *buf; size_t n;
 *   mmd_pmx_write(m, &buf, &n, &err);               malloc'd bytes; free(buf)
 *   mmd_model_free(m);
 *
 * mmd_pmx_write writes PMX 2.1 when m->version == 2.1 (soft bodies included), else
 * 2.0; UTF-8 text when m->encoding == MMD_ENC_UTF8, else UTF-16LE. Index widths are
 * the smallest that hold the counts (vertex: unsigned, others: signed with -1),
 * or m->index_size[i] where non-zero (MMD_E_LIMIT if too small for the count).
 * It does not validate semantics: indices only have to fit their width
 * (MMD_E_BAD_INDEX otherwise). Fields that the file does not store for a given
 * flag (e.g. tail_offset when TAIL_IS_BONE) are not written, so a round trip
 * mmd_model_load(write(m)) reproduces m exactly when m holds the parser's
 * defaults there (what the mmd_model_add_* builders set).
 * *out and *out_size are written only on success.
 */
#ifndef MMD_CORE_PMX_WRITE_H
#define MMD_CORE_PMX_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "core/model.h"

mmd_status mmd_pmx_write(const mmd_model *m, uint8_t **out, size_t *out_size, mmd_error *err);

/* Empty model: PMX 2.0, UTF-16LE, every string "", every count 0. NULL when out of memory.
 * Free with mmd_model_free. */
mmd_model *mmd_model_new(void);
/* Copy a UTF-8 string into the model's arena (NULL s gives ""). */
char *mmd_model_str(mmd_model *m, const char *s);

/* Replace a section with n default elements (zeroed, strings "", references -1) and
 * return it (NULL when out of memory). Defaults beyond zero/-1:
 *  vertex: BDEF1 on bone 0 (weights[0] = 1), normal (0,1,0), edge_scale 1;
 *  material: diffuse (1,1,1,1), specular_power 1;
 *  bone: flags ROTATABLE|VISIBLE|OPERABLE;
 *  morph: panel 4, type VERTEX, no offsets;  rigid body: mass 1, mode FOLLOW_BONE. */
mmd_vertex *mmd_model_add_vertices(mmd_model *m, uint32_t n);
uint32_t *mmd_model_add_indices(mmd_model *m, uint32_t n);
char **mmd_model_add_textures(mmd_model *m, uint32_t n);
mmd_material *mmd_model_add_materials(mmd_model *m, uint32_t n);
mmd_bone *mmd_model_add_bones(mmd_model *m, uint32_t n);
mmd_morph *mmd_model_add_morphs(mmd_model *m, uint32_t n);
mmd_display_frame *mmd_model_add_frames(mmd_model *m, uint32_t n);
mmd_rigid_body *mmd_model_add_rigid_bodies(mmd_model *m, uint32_t n);
mmd_joint *mmd_model_add_joints(mmd_model *m, uint32_t n);
mmd_soft_body *mmd_model_add_soft_bodies(mmd_model *m, uint32_t n);
/* Zeroed arena array of n elements of `size` bytes (morph offsets, IK links, frame
 * elements, anchors, pins). */
void *mmd_model_alloc(mmd_model *m, size_t n, size_t size);

#endif
