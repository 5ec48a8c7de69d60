/* tests/util/pmd_writer.h - writes PMD fixtures for tests (no licensed data).
 *
 * tbuf is a growable little-endian byte buffer; tb_sjis writes a UTF-8 string
 * as a fixed Shift-JIS field (NUL padded, cut at width bytes).
 * mmd_test_pmd_fixture writes a small PMD with every section: 4 vertices
 * (BDEF1/BDEF2, edge flags), 2 triangles, 3 materials (texture*sphere, .spa,
 * lone .sph, toon slots), 9 bones (types 0,1,2,5,6,8,9, a knee), two IK
 * records on one bone (one with a knee link), a base + 2 skins, display lists,
 * English names, a toon list, 2 rigid bodies and a joint. `parts` cuts the
 * optional tail: 0 = up to the bone display list, 1 = + English, 2 = + toon
 * list, 3 = + rigid bodies, 4 = everything. boundaries[0..4] receive the byte
 * offsets where those cuts end (boundaries may be NULL). free() the result.
 */
#ifndef MMD_TEST_PMD_WRITER_H
#define MMD_TEST_PMD_WRITER_H

#include <stddef.h>
#include <stdint.h>

typedef struct tbuf {
    uint8_t *p;
    size_t n, cap;
} tbuf;

void tb_bytes(tbuf *b, const void *s, size_t n);
void tb_u8(tbuf *b, uint8_t v);
void tb_u16(tbuf *b, uint16_t v);
void tb_u32(tbuf *b, uint32_t v);
void tb_f32(tbuf *b, float v);
void tb_f32v(tbuf *b, const float *v, int n);
void tb_sjis(tbuf *b, const char *utf8, size_t width);

uint8_t *mmd_test_pmd_fixture(int parts, size_t *size, size_t boundaries[5]);

/* A PMD that is only a skeleton: no vertices, faces or materials, the given
 * bones (raw fields as the file stores them; names "b<index>" when name is
 * NULL), no IK records unless ik_count > 0 (each IK record: bone, target, links
 * given as bone indices), no skins or display lists, no optional sections.
 * free() the result. */
typedef struct mmd_test_pmd_bone {
    const char *name;
    uint16_t parent, tail;
    uint8_t type;
    uint16_t ik; /* IK-parent / source field (type 9: signed ratio in percent) */
    float pos[3];
} mmd_test_pmd_bone;
typedef struct mmd_test_pmd_ik {
    uint16_t bone, target;
    uint16_t iterations;
    float weight;
    const uint16_t *links;
    uint8_t link_count;
} mmd_test_pmd_ik;
uint8_t *mmd_test_pmd_skeleton(const mmd_test_pmd_bone *bones, uint32_t bone_count, const mmd_test_pmd_ik *iks,
                               uint32_t ik_count, size_t *size);

/* Worst-case shape: n bones (2..65535) in one parent chain, bone 0 an IK bone
 * whose target is the last bone (so the IK layer reaches every bone), the
 * chain's bones as its links (up to 255). free() the result. */
uint8_t *mmd_test_pmd_chain(uint32_t n, size_t *size);
/* Worst-case shape: n materials (<= 65,536) each naming its own texture and
 * sphere map (2n distinct names to deduplicate), no geometry. free() it. */
uint8_t *mmd_test_pmd_textures(uint32_t n, size_t *size);

#endif
