/* renderer/cli/diff_junit.h - `mmdrender diff A B --junit FILE`: the comparison as JUnit XML.
 *
 *     rc = mmd_diff_junit_write("diff.xml", &info, rows, n, msg, sizeof msg);
 *
 * One <testsuite name="mmdrender diff"> in a <testsuites>, one <testcase
 * classname="mmdrender.diff" name="<file name>"> per compared name, in the
 * order of rows. A passing image has no child; a differing one a <failure
 * type="differs"> whose message and text give the figures (pixels over the
 * threshold and their share against --max-fraction, max and mean error, PSNR,
 * SSIM, masked and anti-aliasing pixels); a name on one side only a <failure
 * type="missing"> (in A only) or type="new" (in B only); an unusable pair an
 * <error type="unusable"> with the reason. An image --approve copied has
 * <system-out>approved</system-out>. Counts (tests, failures, errors) are on
 * both elements; names and messages are escaped for XML (control characters
 * as \xNN). Written atomically (a hidden temporary, then rename; a symbolic
 * link at FILE is refused). Returns MMD_OK, or the failure with its sentence in err.
 */
#ifndef MMD_RENDERER_DIFF_JUNIT_H
#define MMD_RENDERER_DIFF_JUNIT_H

#include <stddef.h>

#include "renderer/cli/diff_html.h"

mmd_status mmd_diff_junit_write(const char *path, const mmd_diff_html_info *info, const mmd_diff_html_row *rows,
                                size_t n, mmd_error *err);

#endif
