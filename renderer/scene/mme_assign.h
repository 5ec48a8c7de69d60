/* renderer/scene/mme_assign.h - MikuMikuEffect's assignment files: a
 * project's .emm and a model's .emd, INI text in Shift-JIS whose [Effect...]
 * sections assign effect files to objects ("Pmd1 = a.fx", "Acs2 = b.fx",
 * "Obj = c.fx", per material "Obj[3] = d.fx", "none" for no effect).
 *
 *     mmd_mme_assign_read("miku.emd", on_line, &state);
 */
#ifndef MMD_RENDERER_SCENE_MME_ASSIGN_H
#define MMD_RENDERER_SCENE_MME_ASSIGN_H

#include <stdbool.h>
#include <stdint.h>

/* One KEY = VALUE line of an [Effect...] section: section is its name without
 * the brackets ("Effect", "Effect@1"), key and value trimmed (UTF-8). */
typedef void (*mmd_mme_assign_fn)(void *user, const char *section, const char *key, const char *value);

/* Calls fn for each line of the file's [Effect...] sections, in order; false
 * when the file cannot be read (nothing called). */
bool mmd_mme_assign_read(const char *path, mmd_mme_assign_fn fn, void *user);

/* A line's KEY as MME writes it: prefix (any letter case: "Pmd", "Acs",
 * "Obj"), an object number (*number; 0 when none follows, as "Obj"), then
 * optionally one material (subset) index in brackets (*material; -1 when
 * none). False for any other form: a range "[0-3]" or a list "[1,4]" is not
 * read (nanoem's reader, emapp ModelEffectSetting and PMM's EffectMap, takes
 * one integer between the brackets; MME writes one line per subset). */
bool mmd_mme_assign_key(const char *key, const char *prefix, uint32_t *number, int64_t *material);

#endif
