/* SPDX-License-Identifier: MIT */
/*
 * report_submit.h — `rdnacompat report --submit`: the link that opens a
 * prefilled issue for a written report (the tool sends nothing; the user
 * opens the link, reads it and submits).  A new-issue URL with `title` and
 * `body` query parameters, percent-encoded, at most a cap browsers and
 * GitHub take; when the report does not fit, its last lines are left out of
 * the body and the body says how many and where the full file is.
 */
#ifndef RDC_TOOL_REPORT_SUBMIT_H
#define RDC_TOOL_REPORT_SUBMIT_H

#include <stddef.h>

/* The longest link made: browsers take more, but GitHub's new-issue form
 * refuses very long URLs; 8000 characters keeps within both. */
#define RDC_SUBMIT_URL_MAX 8000

/* The default issue form; RDNACOMPAT_ISSUES_URL replaces it. */
#define RDC_SUBMIT_ISSUES_URL "https://github.com/rdnacompat/rdnacompat/issues/new"

/* The link for report `text` (as written to `path`) with `title`, at most
 * `cap` characters: *trimmed gets the number of report lines left out
 * (0: all there).  Returns NULL when not even the title and the note fit. */
char *rdc_report_submit_url(const char *base, const char *title, const char *text, const char *path, size_t cap,
			    size_t *trimmed);

#endif
