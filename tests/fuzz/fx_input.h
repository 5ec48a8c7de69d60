/* tests/fuzz/fx_input.h - the effect targets' #include (fuzz_fx.c, fuzz_fxpass.c;
 * test harness only): "self.fxsub" (in any folder) reads the input again, a
 * name with "missing" in it fails, any other name is a small fixed file with
 * a macro and a parameter, so the include caps (depth, files, bytes) and the
 * cycle check are exercised. Everything here is static: each target includes it once.
 */
#ifndef MMD_TESTS_FUZZ_FX_INPUT_H
#define MMD_TESTS_FUZZ_FX_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/fx.h"

typedef struct fuzz_fx_input {
    const uint8_t *data;
    size_t size;
} fuzz_fx_input;

static const char k_fuzz_fx_other[] =
    "#define OTHER(x) x##_other\nfloat OTHER(p) : CONTROLOBJECT < string name = \"(self)\"; >;\n";

static mmd_status fuzz_fx_read_include(void *user, const char *dir, const char *name, void **data, size_t *size,
                                       mmd_error *err)
{
    (void)dir;
    const fuzz_fx_input *in = user;
    size_t n = strlen(name);
    bool self = n >= 10 && strcmp(name + n - 10, "self.fxsub") == 0;
    const void *src = self ? (const void *)in->data : (const void *)k_fuzz_fx_other;
    size_t len = self ? in->size : sizeof k_fuzz_fx_other - 1;
    if (strstr(name, "missing"))
        return mmd_fail(err, MMD_E_IO, "no such file");
    *data = malloc(len ? len : 1);
    if (!*data)
        return mmd_fail(err, MMD_E_NOMEM, "out of memory");
    memcpy(*data, src, len);
    *size = len;
    return MMD_OK;
}

/* The input parsed as "fuzz/root.fx" with the loader above; NULL when it does not parse. */
static mmd_fx *fuzz_fx_parse(const uint8_t *data, size_t size)
{
    fuzz_fx_input in = {data, size};
    mmd_fx_loader ld = {fuzz_fx_read_include, &in};
    mmd_fx *fx = NULL;
    mmd_error err;
    return mmd_fx_load(data, size, "fuzz/root.fx", &ld, &fx, &err) == MMD_OK ? fx : NULL;
}

#endif
