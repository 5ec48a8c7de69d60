/* renderer/cli/json_out.h - writing JSON on the CLI's outputs.
 *
 *   mmd_json_str(f, s)   s (UTF-8, NULL = "") as a JSON string: '"' and '\' escaped,
 *                        control characters and DEL as \u00XX, other bytes as they are
 */
#ifndef MMD_RENDERER_JSON_OUT_H
#define MMD_RENDERER_JSON_OUT_H

#include <stdio.h>

void mmd_json_str(FILE *f, const char *s);

#endif
