/* SPDX-License-Identifier: MIT */
/*
 * scrub.c — personal-data scrubbing for card reports (see scrub.h).
 */
#include "scrub.h"

#include <ctype.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tool_util.h"

static void add_word(struct rdc_scrub *s, const char *w, const char *repl)
{
	/* Too short or generic to replace safely inside other words' text. */
	if (!w || strlen(w) < 2 || !strcmp(w, "localhost") || s->n_words >= 8)
		return;
	for (int i = 0; i < s->n_words; i++)
		if (!strcmp(s->words[i], w))
			return;
	s->words[s->n_words] = rdc_xstrdup(w);
	s->repl[s->n_words++] = repl;
}

void rdc_scrub_init(struct rdc_scrub *s, const char *root)
{
	memset(s, 0, sizeof *s);
	const char *h = getenv("HOME");
	if (h && strlen(h) > 1) {
		s->home = rdc_xstrdup(h);
		size_t n = strlen(s->home);
		while (n > 1 && s->home[n - 1] == '/')
			s->home[--n] = '\0';
	}
	struct passwd *pw = getpwuid(getuid());
	if (pw && strcmp(pw->pw_name, "root"))
		add_word(s, pw->pw_name, "<user>");
	const char *u = getenv("USER");
	if (u && strcmp(u, "root"))
		add_word(s, u, "<user>");
	u = getenv("LOGNAME");
	if (u && strcmp(u, "root"))
		add_word(s, u, "<user>");
	char host[256];
	if (gethostname(host, sizeof host) == 0) {
		host[sizeof host - 1] = '\0';
		add_word(s, host, "<host>");
		char *dot = strchr(host, '.');
		if (dot) {
			*dot = '\0';
			add_word(s, host, "<host>");
		}
	}
	if (root && *root) {
		char *p = rdc_rooted(root, "/etc/hostname");
		char *hn = rdc_read_line_file(p);
		free(p);
		add_word(s, hn, "<host>");
		free(hn);
	}
}

void rdc_scrub_free(struct rdc_scrub *s)
{
	free(s->home);
	for (int i = 0; i < s->n_words; i++)
		free(s->words[i]);
	memset(s, 0, sizeof *s);
}

static bool wordch(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '-';
}

/* Replace "/home/<x>", "/root", "/Users/<x>" (followed by '/' or the end of a
 * path) and this user's $HOME with "~". */
static void scrub_paths(const struct rdc_scrub *s, const char *in, struct rdc_sbuf *out)
{
	static const char *const prefixes[] = { "/home/", "/Users/", "/root", NULL };
	const char *p = in;
	while (*p) {
		size_t hl = s->home ? strlen(s->home) : 0;
		if (hl && !strncmp(p, s->home, hl) && (p[hl] == '/' || !wordch(p[hl]))) {
			rdc_sb_add(out, "~");
			p += hl;
			continue;
		}
		bool done = false;
		for (int i = 0; prefixes[i] && !done; i++) {
			size_t n = strlen(prefixes[i]);
			if (strncmp(p, prefixes[i], n) || (p > in && wordch(p[-1])))
				continue;
			const char *q = p + n;
			if (prefixes[i][n - 1] == '/') {
				/* skip the user name component */
				size_t name = strcspn(q, "/ \t\"'");
				if (!name)
					continue;
				q += name;
			} else if (*q && *q != '/' && wordch(*q)) {
				continue; /* "/rootfs" */
			}
			rdc_sb_add(out, "~");
			p = q;
			done = true;
		}
		if (!done)
			rdc_sb_addn(out, p++, 1);
	}
}

char *rdc_scrub(const struct rdc_scrub *s, const char *text)
{
	struct rdc_sbuf a = { 0 };
	rdc_sb_add(&a, "");
	scrub_paths(s, text ? text : "", &a);
	for (int w = 0; w < s->n_words; w++) {
		struct rdc_sbuf b = { 0 };
		rdc_sb_add(&b, "");
		size_t wl = strlen(s->words[w]);
		const char *p = a.s;
		while (*p) {
			if (!strncmp(p, s->words[w], wl) && (p == a.s || !wordch(p[-1])) && !wordch(p[wl])) {
				rdc_sb_add(&b, s->repl[w]);
				p += wl;
			} else {
				rdc_sb_addn(&b, p++, 1);
			}
		}
		rdc_sb_free(&a);
		a = b;
	}
	return a.s;
}
