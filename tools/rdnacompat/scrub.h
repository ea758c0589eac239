/* SPDX-License-Identifier: MIT */
/*
 * scrub.h — removes personal data from text that goes into a card report:
 * home-directory paths (this user's, and any /home/<name>/, /root/,
 * /Users/<name>/) become "~/", the user name "<user>", the host name
 * "<host>" (whole words only).
 */
#ifndef RDC_TOOL_SCRUB_H
#define RDC_TOOL_SCRUB_H

struct rdc_scrub {
	char *home;                /* $HOME, without trailing slash */
	char *words[8];            /* user and host names to replace */
	const char *repl[8];
	int n_words;
};

/* Collect this process's user name, home and host name (and, when root is
 * non-empty, <root>/etc/hostname). */
void rdc_scrub_init(struct rdc_scrub *s, const char *root);
void rdc_scrub_free(struct rdc_scrub *s);

/* A scrubbed malloc'd copy of `text`. */
char *rdc_scrub(const struct rdc_scrub *s, const char *text);

#endif
