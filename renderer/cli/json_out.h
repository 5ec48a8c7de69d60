/* renderer/cli/json_out.h - writing JSON on the CLI's outputs.
 *
 *   mmd_json_str(f, s)   s (UTF-8, NULL = "") as a JSON string: '"' and '\' escaped,
 *                        control characters, DEL and C1 (U+0080..U+009F) as \u00XX, other
 *                        bytes as they are, so a name from a file cannot reach a terminal raw
 */
#ifndef MMD_RENDERER_JSON_OUT_H
#define MMD_RENDERER_JSON_OUT_H

#include <stdio.h>

void mmd_json_str(FILE *f, const char *s);

#endif
