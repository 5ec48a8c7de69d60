/* core/model_internal.h - entry points shared by the model loaders only.
 * Not part of the public API: include from the core loader sources and their tests. */
#ifndef MMD_CORE_MODEL_INTERNAL_H
#define MMD_CORE_MODEL_INTERNAL_H

#include "core/model.h"
#include "core/reader.h"
#include "core/text.h"

/* Parse into m (m->arena already created). Structure checks only;
 * mmd_model_load runs mmd_model_validate afterwards. */
mmd_status mmd_pmx_parse(const uint8_t *data, size_t size, mmd_model *m, mmd_text *t, mmd_error *err);
mmd_status mmd_pmd_parse(const uint8_t *data, size_t size, mmd_model *m, mmd_text *t, mmd_error *err);

#endif
