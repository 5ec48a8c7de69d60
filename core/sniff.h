/* core/sniff.h - the file formats mmdrender reads, one row each: signature
 * (magic) -> format -> what reads it.
 *
 *   const mmd_sniff_row *f = mmd_sniff(bytes, size);        by content; NULL: none
 *   const mmd_sniff_row *g = mmd_sniff_path("stage.vac");   by extension (any case)
 *   if (f && f->kind == MMD_KIND_ACCESSORY) f->load_accessory(bytes, size, &mesh, &err);
 *
 * Models and motions are read by mmd_model_load / mmd_motion_load, which tell
 * their formats apart by this table; an accessory row names its reader,
 * mmd_<name>_accessory_load (declared here, defined in the reader's file), which
 * mmd_accessory_load (core/accessory.h) calls. A row without a signature ("")
 * is known by its extension only. Pure data: no I/O.
 */
#ifndef MMD_CORE_SNIFF_H
#define MMD_CORE_SNIFF_H

#include <stdbool.h>
#include <stddef.h>

#include "core/accessory.h"
#include "core/status.h"

/* F(ID, name, kind, label, signature, bom, extension): MMD_FILE_<ID>; name as
 * in `info --json` ("format") and in the reader's name; MMD_KIND_<kind>; the
 * label messages list; the bytes a file starts with; bom 1: a UTF-8 BOM may come
 * before them (text formats). */
#define MMD_SNIFF_LIST(F)                                                      \
    F(PMX, pmx, MODEL, "PMX", "PMX ", 0, ".pmx")                               \
    F(PMD, pmd, MODEL, "PMD", "Pmd", 0, ".pmd")                                \
    F(VMD, vmd, MOTION, "VMD", "Vocaloid Motion Data", 0, ".vmd")              \
    F(VPD, vpd, MOTION, "VPD", "Vocaloid Pose Data file", 1, ".vpd")           \
    F(X, x, ACCESSORY, ".x", "xof ", 0, ".x")                                  \
    F(VAC, vac, PLACEMENT, ".vac", "", 1, ".vac")                              \
    F(PMM, pmm, PROJECT, ".pmm", "Polygon Movie maker ", 0, ".pmm")

typedef enum mmd_file_kind {
    MMD_KIND_MODEL = 1,     /* core/model.h */
    MMD_KIND_MOTION = 2,    /* core/motion.h */
    MMD_KIND_ACCESSORY = 4, /* core/accessory.h: the row's load_accessory */
    MMD_KIND_PLACEMENT = 8, /* names an accessory and places it (.vac) */
    MMD_KIND_PROJECT = 16,  /* core/pmm.h */
} mmd_file_kind;

#define MMD_SNIFF_ENUM(id, name, kind, label, sig, bom, ext) MMD_FILE_##id,
typedef enum mmd_file_format { MMD_SNIFF_LIST(MMD_SNIFF_ENUM) MMD_FILE_FORMAT_COUNT } mmd_file_format;

typedef mmd_status (*mmd_accessory_reader)(const void *data, size_t size, mmd_accessory_mesh **out,
                                           mmd_error *err);

/* Each accessory row's reader. */
#define MMD_SNIFF_READER_MODEL(name)
#define MMD_SNIFF_READER_MOTION(name)
#define MMD_SNIFF_READER_PLACEMENT(name)
#define MMD_SNIFF_READER_PROJECT(name)
#define MMD_SNIFF_READER_ACCESSORY(name) \
    mmd_status mmd_##name##_accessory_load(const void *data, size_t size, mmd_accessory_mesh **out, mmd_error *err);
#define MMD_SNIFF_READER(id, name, kind, label, sig, bom, ext) MMD_SNIFF_READER_##kind(name)
MMD_SNIFF_LIST(MMD_SNIFF_READER)

typedef struct mmd_sniff_row {
    mmd_file_format id;
    const char *name;      /* "pmx" */
    mmd_file_kind kind;
    const char *label;     /* "PMX" */
    const char *signature; /* "" none */
    size_t signature_len;
    bool bom;              /* a UTF-8 BOM may precede the signature */
    const char *ext;       /* ".pmx" */
    mmd_accessory_reader load_accessory; /* MMD_KIND_ACCESSORY rows; NULL otherwise */
} mmd_sniff_row;

/* The row of id (NULL when out of range): rows 0 .. MMD_FILE_FORMAT_COUNT-1. */
const mmd_sniff_row *mmd_sniff_row_of(mmd_file_format id);
/* The row whose signature data starts with; NULL when none. */
const mmd_sniff_row *mmd_sniff(const void *data, size_t size);
/* The row whose extension path ends in (any case); NULL when none. */
const mmd_sniff_row *mmd_sniff_path(const char *path);
/* The labels of the rows of the kinds in mask (MMD_KIND_*) that have a
 * signature, "PMX, PMD, VMD, VPD or .x", into buf; buf. */
const char *mmd_sniff_labels(unsigned kinds, char *buf, size_t cap);
/* Their extensions, ".pmx, .pmd", into buf; buf. */
const char *mmd_sniff_exts(unsigned kinds, char *buf, size_t cap);

#endif
