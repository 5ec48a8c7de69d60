/* renderer/cli/outputs.h - the output kinds `mmdrender -o OUT` knows, as a table.
 *
 * One row per kind: how an OUT argument is recognised, how its sink is opened
 * (renderer/output/), whether a finished frame can be found for
 * --skip-existing, and its timing stats. The render command has no switch on
 * the kind: a new output kind is one row in outputs.c plus its sink file in
 * renderer/output/ (docs/architecture.md).
 */
#ifndef MMD_RENDERER_OUTPUTS_H
#define MMD_RENDERER_OUTPUTS_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/status.h"
#include "renderer/scene/plan.h"
#include "renderer/scene/scene.h"
#include "renderer/output/sink.h"
#include "renderer/output/sink_video.h"

/* Everything a sink may be opened with (the scene after the options). */
typedef struct mmd_output_request {
    const char *target;              /* the -o argument */
    int width, height, fps_num, fps_den;
    bool alpha;                      /* transparent background */
    const char *codec, *preset;      /* NULL: the kind's default */
    int crf, threads;
    const char *audio_path;          /* NULL: none */
    double audio_offset, start_time; /* seconds */
    bool chunk;                      /* one farm chunk of several */
    int64_t first_frame, last_frame; /* the frames this run writes (PNG folder lock) */
    const char *chunk_tag;           /* chunk videos: the metadata concat checks */
    const volatile sig_atomic_t *cancel; /* videos: set by a signal, shortens the close */
} mmd_output_request;

typedef struct mmd_output_kind {
    const char *name; /* "null", "video", "still", "png" */
    /* true when target names this kind; rows are tried in order */
    bool (*recognises)(const char *target);
    /* the sink, or NULL with err; a NULL function: frames go nowhere */
    mmd_sink *(*open)(const mmd_output_request *r, mmd_error *err);
    /* a complete frame is already there (--skip-existing); NULL: not supported */
    bool (*frame_exists)(const char *target, int64_t frame, int width, int height);
    /* what open would refuse for the request alone (size, codec), checked
     * before any input is loaded; NULL: nothing to check */
    mmd_status (*check)(const mmd_output_request *r, mmd_error *err);
    /* encoder timings for --stats; NULL: none (zeros) */
    void (*stats)(const mmd_sink *s, mmd_video_stats *out);
    /* true when writing to target would replace the file `path`, with *frame
     * the frame that writes it (-1: any; one-file outputs); NULL: writes nothing */
    bool (*writes)(const char *target, const char *path, int64_t *frame);
    /* bytes the sink will hold for the request (queue, encoder), for
     * --max-memory (renderer/cli/memory.h); NULL: none */
    uint64_t (*memory)(const mmd_output_request *r);
    bool encodes;     /* --codec and --preset apply */
} mmd_output_kind;

/* The metadata a chunk video carries (its "comment" tag), written at render
 * time and checked by `mmdrender concat`: chunk I of N, the output frames it
 * holds (first..last), the whole range it is part of with its step, and the
 * frame rate. printf/scanf format; the arguments in that order. */
#define MMD_CHUNK_TAG_FORMAT "mmdrender chunk %d/%d frames %lld-%lld of %lld-%lld step %d fps %d/%d"

/* What a run writes for scene s and plan p into target: size, the video's
 * rate (p's video_fps: fps / step), alpha, the song and where the first frame
 * sits in it (start_time), the frames it writes. The caller adds the encoder
 * options, chunk and cancel. render and encode both open their sink from it,
 * so the same frames make the same file. */
mmd_output_request mmd_output_request_for(const mmd_scene *s, const mmd_render_plan *p, const char *target);

/* The row for target, or NULL when no kind recognises it. */
const mmd_output_kind *mmd_output_kind_for(const char *target);

#endif
