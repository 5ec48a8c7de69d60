/* core/text.h - text conversion for MMD files (iconv underneath).
 *
 * PMX stores UTF-16LE or UTF-8; PMD, VMD and VPD store Shift-JIS (CP932).
 * Everything in memory is UTF-8. Invalid sequences become U+FFFD and are
 * counted in *bad (optional), never an error: names are cosmetic, files from
 * old editors contain junk, and VMD names are cut at 15/20 bytes, often in the
 * middle of a double-byte character (a trailing cut lead byte is dropped).
 *
 * One mmd_text per load (it caches iconv descriptors); not thread-safe.
 */
#ifndef MMD_CORE_TEXT_H
#define MMD_CORE_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"

typedef struct mmd_text mmd_text;

mmd_text *mmd_text_create(void);
void mmd_text_destroy(mmd_text *t); /* NULL is a no-op */

/* UTF-16LE bytes (n may be odd: the last byte is ignored) to a UTF-8 arena string. */
char *mmd_text_utf16le(mmd_text *t, mmd_arena *a, const uint8_t *s, size_t n, unsigned *bad);
/* UTF-8 bytes, validated, to an arena string. */
char *mmd_text_utf8(mmd_text *t, mmd_arena *a, const uint8_t *s, size_t n, unsigned *bad);
/* Fixed-size Shift-JIS field: stops at the first NUL. */
char *mmd_text_sjis(mmd_text *t, mmd_arena *a, const uint8_t *s, size_t n, unsigned *bad);
/* UTF-8 to Shift-JIS, cut to at most cap bytes without splitting a character
 * the way MMD writes names (bytes beyond cap are dropped; a double-byte
 * character that does not fit is cut after its lead byte, as MMD does).
 * Returns the byte count written; characters with no CP932 form become '?'. */
size_t mmd_text_to_sjis(mmd_text *t, const char *utf8, uint8_t *out, size_t cap);
/* The same without substitutes or cuts: out gets the whole CP932 string and a
 * NUL; false when a character has no CP932 form or it does not fit in cap
 * (file names: a '?' would name another file). */
bool mmd_text_to_sjis_exact(mmd_text *t, const char *utf8, char *out, size_t cap);

/* Stateless helpers (no iconv): */
/* Length of s up to the first NUL, at most n. */
size_t mmd_text_fixed_len(const uint8_t *s, size_t n);

#endif
