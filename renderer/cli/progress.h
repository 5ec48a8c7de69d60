/* renderer/cli/progress.h - render progress on stderr: a bar, plain lines or JSON lines.
 *
 *     mmd_progress *p = mmd_progress_create(MMD_PROGRESS_AUTO, stderr, total);
 *     per finished frame (any thread): mmd_progress_frame(p, frame_number);
 *     mmd_progress_finish(p); mmd_progress_free(p);
 *
 * bar:   "\r[#####.....]  12/300   4%  23.5 fps  ETA 0:12" (a terminal)
 * plain: "frame 12/300 4% 23.50 fps elapsed 0:00:01 ETA 0:00:12" lines (logs:
 *        farm tasks, CI), at most a few per second plus the last
 * json:  {"frame":12,"done":12,"total":300,"fps":23.5,"eta_s":12.3} per frame
 * AUTO picks bar when out is a terminal, else plain.
 */
#ifndef MMD_RENDERER_PROGRESS_H
#define MMD_RENDERER_PROGRESS_H

#include <stdint.h>
#include <stdio.h>

typedef enum mmd_progress_mode {
    MMD_PROGRESS_AUTO = 0,
    MMD_PROGRESS_BAR,
    MMD_PROGRESS_PLAIN,
    MMD_PROGRESS_JSON,
    MMD_PROGRESS_NONE,
} mmd_progress_mode;

typedef struct mmd_progress mmd_progress;

/* NULL on out of memory (callers treat that as NONE). */
mmd_progress *mmd_progress_create(mmd_progress_mode mode, FILE *out, int64_t total);
/* One more frame done; frame is the scene frame number. Thread-safe. */
void mmd_progress_frame(mmd_progress *p, int64_t frame);
/* Final line (bar: newline). */
void mmd_progress_finish(mmd_progress *p);
void mmd_progress_free(mmd_progress *p); /* NULL is a no-op */
/* Frames per second so far (done / elapsed). */
double mmd_progress_fps(const mmd_progress *p);
/* "bar" "plain" "json" "none" -> mode; -1 when unknown. */
int mmd_progress_parse_mode(const char *s);

#endif
