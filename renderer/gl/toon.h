/* renderer/gl/toon.h - MMD's ten shared toon textures, generated procedurally.
 *
 * MMD ships toon01.bmp..toon10.bmp, which cannot be redistributed; a material
 * with the "shared toon" flag names one of them by number. We rebuild them
 * (DESIGN.md E.2): 32x32 RGBA8, every row uniform across x, row 0 = the lit
 * end (the toon lookup samples v = 1 - N.L style coordinates, v = 0 lit).
 * Colours are the row means of the base64 set three.js and babylon-mmd ship
 * (approximations of MMD's own files), cleaned to exact steps.
 */
#ifndef MMD_RENDERER_TOON_H
#define MMD_RENDERER_TOON_H

#include <stdint.h>

#define MMD_TOON_SIZE 32

/* index 1..10 = toon01..toon10; 0 (and anything out of range) = plain white
 * ("toon0", what MMD uses for a material without toon). rgba: 32*32*4 bytes,
 * top row first, alpha 255. */
void mmd_toon_generate(int index, uint8_t rgba[MMD_TOON_SIZE * MMD_TOON_SIZE * 4]);

/* Colour of one row (0..31) of toon index (see above) as RGBA8. */
void mmd_toon_row(int index, int row, uint8_t out[4]);

/* "toon03.bmp" (any case) -> 3: 1..10, or 0 when name is not exactly one of
 * the shared toon file names (a name with a directory, "tex/toon03.bmp", is
 * the model's own file: 0). PMD models store their toon textures as names;
 * toonNN.bmp means the shared one unless the model folder has that file
 * (the caller checks that first, as MMD does). */
int mmd_toon_shared_index(const char *name);

#endif
