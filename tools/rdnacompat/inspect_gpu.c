/* SPDX-License-Identifier: MIT */
/*
 * inspect_gpu.c — resolve --gpu TARGET, --card NAME or --pci ID to a device
 * target (see inspect_gpu.h).  --pci takes VENDOR:DEVICE[:REV], DEVICE, or
 * DEVICE:REV (a two-digit second part is a revision).  A card name resolves when every matching card
 * has the same target, or one card's name (one of its "; "-separated names)
 * equals the query ignoring case.
 */
#include "inspect_gpu.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_CARDS 256

static int from_text(const struct rdc_tables *t, const char *s, struct rdc_target *dev,
		     char *err, size_t n)
{
	struct rdc_diag d;
	rdc_diag_clear(&d);
	if (rdc_target_parse(s, (size_t)-1, dev, &d)) {
		snprintf(err, n, "--gpu '%s': %s", s, d.msg);
		return -1;
	}
	if (!rdc_isa_find(t, dev->proc)) {
		snprintf(err, n, "--gpu '%s': processor %s is not in the isa table", s, dev->proc);
		return -1;
	}
	return 1;
}

/* Does one of the card's "; "-separated names equal q (ignoring case)? */
static bool name_is(const char *names, const char *q)
{
	size_t ql = strlen(q);
	for (const char *p = names; p && *p;) {
		const char *end = strstr(p, "; ");
		size_t l = end ? (size_t)(end - p) : strlen(p);
		if (l == ql && !strncasecmp(p, q, l))
			return true;
		p = end ? end + 2 : NULL;
	}
	return false;
}

static int from_card(const struct rdc_tables *t, const char *q, struct rdc_target *dev,
		     char *err, size_t n)
{
	const struct rdc_card *hits[MAX_CARDS];
	size_t k = rdc_card_search(t, q, hits, MAX_CARDS);
	if (k == 0) {
		snprintf(err, n, "--card '%s': no card in the card table matches", q);
		return -1;
	}
	const struct rdc_card *pick = NULL;
	for (size_t i = 0; i < k && !pick; i++)
		if (name_is(hits[i]->name, q))
			pick = hits[i];
	if (!pick) {
		for (size_t i = 1; i < k; i++) {
			if (strcmp(hits[i]->target, hits[0]->target)) {
				/* Each target once, with its first matching card: the
				 * list stays short and shows the disagreement. */
				size_t len = (size_t)snprintf(err, n,
					"--card '%s' matches cards of different targets:", q);
				bool first = true;
				for (size_t j = 0; j < k && len < n; j++) {
					bool seen = false;
					for (size_t m = 0; m < j; m++)
						seen |= !strcmp(hits[m]->target, hits[j]->target);
					if (seen)
						continue;
					len += (size_t)snprintf(err + len, n - len, "%s %s (e.g. %s)",
								first ? "" : ";", hits[j]->target,
								hits[j]->name);
					first = false;
				}
				if (len < n)
					snprintf(err + len, n - len, "; give --gpu TARGET or a longer name");
				return -1;
			}
		}
		pick = hits[0];
	}
	return from_text(t, pick->target, dev, err, n);
}

static bool hex(const char *s, size_t len, unsigned long *v)
{
	if (len >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		len -= 2;
	}
	if (len == 0 || len > 4)
		return false;
	*v = 0;
	for (size_t i = 0; i < len; i++) {
		if (!isxdigit((unsigned char)s[i]))
			return false;
		*v = *v * 16 + (unsigned long)(isdigit((unsigned char)s[i]) ? s[i] - '0'
						: tolower((unsigned char)s[i]) - 'a' + 10);
	}
	return true;
}

static int from_pci(const struct rdc_tables *t, const char *s, struct rdc_target *dev,
		    char *err, size_t n)
{
	const char *parts[3];
	size_t lens[3], np = 0;
	for (const char *p = s; np < 3;) {
		const char *c = strchr(p, ':');
		parts[np] = p;
		lens[np++] = c ? (size_t)(c - p) : strlen(p);
		if (!c)
			break;
		p = c + 1;
	}
	unsigned long v[3];
	bool ok = np >= 1 && strlen(s) > 0;
	for (size_t i = 0; ok && i < np; i++)
		ok = hex(parts[i], lens[i], &v[i]);
	if (!ok || strchr(parts[np - 1] + lens[np - 1], ':')) {
		snprintf(err, n, "--pci '%s': expected [VENDOR:]DEVICE[:REV] in hex", s);
		return -1;
	}
	unsigned long vendor = 0x1002, device, rev = (unsigned long)-1;
	if (np == 1) {
		device = v[0];
	} else if (np == 2 && lens[1] <= 2) {
		device = v[0]; /* DEVICE:REV */
		rev = v[1];
	} else {
		vendor = v[0];
		device = v[1];
		if (np == 3)
			rev = v[2];
	}
	int r = rev == (unsigned long)-1 ? -1 : (int)rev;
	const struct rdc_card *c = rdc_card_find_pci(t, (uint16_t)vendor, (uint16_t)device, r);
	if (!c) {
		snprintf(err, n, "--pci '%s': no card %04lx:%04lx in the card table", s, vendor, device);
		return -1;
	}
	return from_text(t, c->target, dev, err, n);
}

int rdc_inspect_resolve_gpu(const struct rdc_tables *t, const char *gpu, const char *card,
			    const char *pci, struct rdc_target *dev, char *err, size_t n)
{
	if (n)
		err[0] = '\0';
	if (gpu)
		return from_text(t, gpu, dev, err, n);
	if (card)
		return from_card(t, card, dev, err, n);
	if (pci)
		return from_pci(t, pci, dev, err, n);
	return 0;
}
