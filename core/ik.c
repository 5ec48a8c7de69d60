/* core/ik.c - CCD IK, babylon-mmd/nanoem variant (DESIGN B.4). */
#include "core/anim_internal.h"

void mmd_anim_solve_ik(mmd_anim *a, int32_t ik_bone);

void mmd_anim_solve_ik(mmd_anim *a, int32_t ik_bone)
{
    (void)a, (void)ik_bone;
}
