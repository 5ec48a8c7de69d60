/* renderer/output/media_open.h - every media file libavformat reads is opened here:
 * a scene's or project's song ([audio] file) and background video ([background]
 * video), and concat's chunks and --audio.
 *
 *     AVFormatContext *ic = NULL;
 *     if (mmd_media_open("song.wav", MMD_MEDIA_AUDIO, &ic, &err) != MMD_OK) -> err.msg
 *     avformat_find_stream_info(ic, NULL); ... av_read_frame(ic, pkt) ...
 *     mmd_media_close(&ic);
 *
 * libavformat parses a file name as a URL ("concat:a.wav|/etc/passwd",
 * "file:other.wav", "http://...") and some of its demuxers read other files
 * (HLS playlists, ffconcat scripts, image2 patterns). So the name never reaches
 * it: the file is opened by us as a regular file (core/file.h: no FIFO, device
 * or directory) and handed over as an open descriptor behind a custom
 * AVIOContext (read and seek over that descriptor only). Its demuxer is probed
 * from the bytes and must be a row of the use's list of plain containers (one
 * table in media_open.c, the only place the list is written); anything else is
 * refused, MMD_E_UNSUPPORTED, naming the file and what it really is:
 * "song.wav: is an Apple HTTP Live Streaming (hls), not an audio file (...)".
 * Defence in depth: the context's io_open refuses every nested open (the first
 * one it refused is named in the open's error sentence; nothing here prints), its
 * protocol_whitelist is empty and its format_whitelist is the use's list, so no
 * input can make libavformat open another file or a network connection.
 *
 * Errors (err may be NULL): MMD_E_IO (cannot open, or no format recognised:
 * "PATH: cannot open audio: REASON"), MMD_E_UNSUPPORTED (a format not on the
 * list), MMD_E_NOMEM. *ic is set on success only. Thread-safe: no shared state.
 */
#ifndef MMD_RENDERER_MEDIA_OPEN_H
#define MMD_RENDERER_MEDIA_OPEN_H

#include <libavformat/avformat.h>
#include <stddef.h>

#include "core/status.h"

typedef enum mmd_media_use {
    MMD_MEDIA_AUDIO, /* a song: audio containers (WAV, MP3, Ogg, FLAC, AAC, M4A, ...) */
    MMD_MEDIA_VIDEO, /* a background video: video containers (AVI, MP4, MKV, WMV, MPEG, ...) */
    MMD_MEDIA_CHUNK, /* concat's input: the containers our video outputs write */
    MMD_MEDIA_USE_COUNT
} mmd_media_use;

mmd_status mmd_media_open(const char *path, mmd_media_use use, AVFormatContext **ic, mmd_error *err);
/* Closes the demuxer, its AVIOContext and the descriptor; *ic = NULL. NULL
 * or *ic NULL is a no-op. */
void mmd_media_close(AVFormatContext **ic);
/* The demuxer names the use takes, comma-separated ("wav,w64,..."), into buf;
 * returns buf. What libavformat's format_whitelist gets. */
const char *mmd_media_formats(mmd_media_use use, char *buf, size_t cap);

#endif
