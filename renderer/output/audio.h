/* renderer/output/audio.h - one audio track muxed into an output file (libav).
 *
 * Used by the video sink (audio interleaved with frames it encodes) and by
 * `mmdrender concat` (audio beside copied video packets):
 *
 *     mmd_audio_options ao = {.path = "song.wav", .offset = 0.25};
 *     mmd_audio *a = NULL;
 *     rc = mmd_audio_open(&a, oc, &ao, &err);       // adds the stream: before avformat_write_header
 *     rc = mmd_audio_write_to(a, frames, fps_tb, &err); // as the video advances (optional)
 *     mmd_audio_set_end(a, frames, fps_tb);            // the track's length
 *     rc = mmd_audio_finish(a, &err);                // the rest + encoder flush: before av_write_trailer
 *     mmd_audio_free(a);
 *
 * Timing: output time t plays audio-file time t - offset, so offset > 0 puts
 * silence first and offset < 0 trims the file's start. The track ends at the
 * end set with mmd_audio_set_end; past the file's end it is silence.
 *
 * Encoding: the audio is decoded, resampled to 48 kHz stereo and encoded
 * (AAC; Opus in WebM; 16-bit PCM with the pcm option). Copy: with allow_copy, when mmd_audio_can_copy says
 * so, packets are copied unchanged up to the first one at or after the end.
 *
 * Every mmd_status function returns MMD_OK or, with err filled (NULL allowed):
 * MMD_E_IO / MMD_E_UNSUPPORTED / MMD_E_BAD_* (audio unreadable, not an audio container
 * (a playlist, a script: media_open.h) or undecodable),
 * MMD_E_ENCODER (encoder, memory), MMD_E_OUTPUT (the muxer's write).
 * Times in (t, tb) pairs are output times in the rational time base tb.
 */
#ifndef MMD_RENDERER_AUDIO_H
#define MMD_RENDERER_AUDIO_H

#include <libavcodec/codec_id.h>
#include <libavformat/avformat.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"

#define MMD_AUDIO_RATE 48000 /* sample rate of encoded tracks */

typedef struct mmd_audio mmd_audio;

typedef struct mmd_audio_options {
    const char *path; /* audio file, read as named (media_open.h: audio containers only; copied) */
    double offset;    /* seconds: output time of the file's time 0 */
    bool allow_copy;  /* copy packets when mmd_audio_can_copy(); else always encode */
    double max_packet_s; /* > 0: copy only codecs whose packets are at most this long
                          * (a copied track ends on a packet: the video sink passes
                          * one frame so the cut lands within a frame) */
    bool pcm;            /* encode 16-bit PCM (AVI, editing codecs) instead of AAC/Opus */
} mmd_audio_options;

/* true when a stream of codec id can be copied into format fmt at this
 * offset: offset 0, not raw PCM, and a codec the container's players take
 * (MP4/MOV: AAC, MP3; WebM: Opus, Vorbis; MKV: all four). */
bool mmd_audio_can_copy(const AVOutputFormat *fmt, enum AVCodecID id, double offset);

/* Opens o->path and adds its stream to oc (not yet written: call before
 * avformat_write_header). *out is set on success only; oc must outlive it. */
mmd_status mmd_audio_open(mmd_audio **out, AVFormatContext *oc, const mmd_audio_options *o, mmd_error *err);
/* The track ends at output time t (tb). Call once, before write_next/finish. */
void mmd_audio_set_end(mmd_audio *a, int64_t t, AVRational tb);
/* Writes every packet that ends by output time t: whole encoder frames, or
 * copied packets. Never past the end, if one is set. */
mmd_status mmd_audio_write_to(mmd_audio *a, int64_t t, AVRational tb, mmd_error *err);
/* *t_us: output time (AV_TIME_BASE) of the next packet; INT64_MAX when all is
 * written. May read the input (copy). */
mmd_status mmd_audio_next_time(mmd_audio *a, int64_t *t_us, mmd_error *err);
/* Writes the next packet: one encoder frame (the last may be short) or one
 * copied packet; at the end, flushes the encoder. Needs the end set. */
mmd_status mmd_audio_write_next(mmd_audio *a, mmd_error *err);
/* Writes everything left up to the end, then flushes. Needs the end set. */
mmd_status mmd_audio_finish(mmd_audio *a, mmd_error *err);
/* true when packets are copied, false when encoded. */
bool mmd_audio_is_copy(const mmd_audio *a);
/* The encoder's name ("aac", "libopus") or the copied codec's ("aac", "mp3"). */
const char *mmd_audio_codec_name(const mmd_audio *a);
/* Frees everything but the output stream (oc owns it); NULL is a no-op. */
void mmd_audio_free(mmd_audio *a);

#endif
