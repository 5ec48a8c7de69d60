/* core/vmd.c - VMD/VPD reader (placeholder until the reader lands). */
#include "core/motion.h"

mmd_status mmd_motion_load(const void *data, size_t size, mmd_motion **out, mmd_error *err)
{
    (void)data; (void)size; (void)out;
    return mmd_error_set(err, MMD_E_UNSUPPORTED, "vmd", -1, -1, "VMD reader not built yet");
}
