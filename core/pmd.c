/* core/pmd.c - PMD reader (placeholder until the reader lands). */
#include "core/model_internal.h"

mmd_status mmd_pmd_parse(const uint8_t *data, size_t size, mmd_model *m, mmd_text *t, mmd_error *err)
{
    (void)data; (void)size; (void)m; (void)t;
    return mmd_error_set(err, MMD_E_UNSUPPORTED, "pmd", -1, -1, "PMD reader not built yet");
}
