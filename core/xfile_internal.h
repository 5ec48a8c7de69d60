/* core/xfile_internal.h - shared by the .x reader, writer and their tests only.
 * Not part of the public API. */
#ifndef MMD_CORE_XFILE_INTERNAL_H
#define MMD_CORE_XFILE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "core/status.h"

#define MMD_X_HEADER_BYTES 16
#define MMD_X_MSZIP_BLOCK 32768u            /* inflated bytes per MSZIP block at most */
#define MMD_X_MAX_INFLATED (256u << 20)     /* inflated payload cap */
/* An honest mesh deflates about 3:1 (text) or 1.5:1 (binary floats); a payload
 * more than MMD_X_MAX_RATIO times its compressed bytes (above MMD_X_FREE_INFLATED)
 * is a bomb: parsing and building cost about 25 ms and 7 bytes per inflated
 * byte, so the cap keeps a 1 MiB file under 1 s and 300 MB (issue 24). */
#define MMD_X_MAX_RATIO 32u
#define MMD_X_FREE_INFLATED (1u << 20)

/* Binary tokens (DirectX .x binary format). */
enum {
    XB_NAME = 1, XB_STRING = 2, XB_INTEGER = 3, XB_GUID = 5, XB_INTEGER_LIST = 6, XB_FLOAT_LIST = 7,
    XB_OBRACE = 10, XB_CBRACE = 11, XB_OPAREN = 12, XB_CPAREN = 13, XB_OBRACKET = 14,
    XB_CBRACKET = 15, XB_OANGLE = 16, XB_CANGLE = 17, XB_DOT = 18, XB_COMMA = 19,
    XB_SEMICOLON = 20, XB_TEMPLATE = 31, XB_WORD = 40, XB_DWORD = 41, XB_FLOAT = 42,
    XB_DOUBLE = 43, XB_CHAR = 44, XB_UCHAR = 45, XB_SWORD = 46, XB_SDWORD = 47, XB_VOID = 48,
    XB_LPSTR = 49, XB_UNICODE = 50, XB_CSTRING = 51, XB_ARRAY = 52,
};

/* MSZIP: after the 16-byte header, u32 total size (header included), then blocks of
 * u16 inflated size, u16 compressed size (+2 for 'CK'), 'CK', raw deflate whose
 * dictionary is the preceding (up to 32 KiB of) inflated data. *out is malloc'd.
 * Offsets in errors are file offsets. */
mmd_status mmd_x_inflate(const uint8_t *data, size_t size, uint8_t **out, size_t *out_size,
                         mmd_error *err);
/* The reverse: payload (without header) into a complete compressed file (header
 * given: 16 bytes). *out is malloc'd. */
mmd_status mmd_x_deflate(const uint8_t header[16], const uint8_t *payload, size_t n, uint8_t **out,
                         size_t *out_size, mmd_error *err);


#endif
