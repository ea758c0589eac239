/* SPDX-License-Identifier: MIT */
/*
 * log.c — the one logger.  Every line goes out in a single write(2) to
 * stderr or RDNACOMPAT_LOG_FILE (opened O_APPEND|O_CLOEXEC, never on fds
 * 0-2), never to stdout; errno is saved and restored; levels
 * error|warn|info|debug; text or JSON lines (RDNACOMPAT_LOG_FORMAT=json).
 *
 * Text:  rdnacompat[1234]: info: map: lib=librocsparse.so.0 bundle=3 ...
 * JSON:  {"pid":1234,"level":"info","event":"map","lib":"librocsparse.so.0",...}
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "shim.h"

pthread_mutex_t rdc_log_lock = PTHREAD_MUTEX_INITIALIZER;
static int log_fd = 2;
static enum rdc_level log_level = RDC_LOG_WARN;
static bool log_json;

static const char *const lvl_name[] = { "error", "warn", "info", "debug" };

void rdc_log_open(const struct rdc_config *cfg)
{
	log_level = cfg->level;
	log_json = cfg->json;
	if (!cfg->log_file[0])
		return;
	int fd = rdc_sys_open(cfg->log_file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC);
	if (fd >= 0 && fd < 3) {
		int hi = fcntl(fd, F_DUPFD_CLOEXEC, 3);
		close(fd);
		fd = hi;
	}
	if (fd >= 0)
		log_fd = fd;
	else
		rdc_logf(RDC_LOG_WARN, "cannot open RDNACOMPAT_LOG_FILE %s: %s (logging to stderr)",
			 cfg->log_file, strerror(errno));
}

bool rdc_log_enabled(enum rdc_level lvl)
{
	return lvl <= log_level;
}

/* Append s to buf at *pos (bounded), escaping for JSON or quoting for text. */
static void put(char *buf, size_t n, size_t *pos, const char *s)
{
	size_t len = strlen(s);
	if (*pos < n) {
		size_t room = n - *pos - 1;
		size_t k = len < room ? len : room;
		memcpy(buf + *pos, s, k);
		buf[*pos + k] = 0;
	}
	*pos += len;
}

static void put_val(char *buf, size_t n, size_t *pos, const char *v, bool json)
{
	bool quote = json || v[0] == 0 || strpbrk(v, " \t\"=") != NULL;
	if (quote)
		put(buf, n, pos, "\"");
	for (const char *p = v; *p; p++) {
		char tmp[8];
		unsigned char ch = (unsigned char)*p;
		if (ch == '"' || ch == '\\') {
			tmp[0] = '\\'; tmp[1] = (char)ch; tmp[2] = 0;
		} else if (ch < 0x20) {
			snprintf(tmp, sizeof tmp, json ? "\\u%04x" : "\\x%02x", ch);
		} else {
			tmp[0] = (char)ch; tmp[1] = 0;
		}
		put(buf, n, pos, tmp);
	}
	if (quote)
		put(buf, n, pos, "\"");
}

size_t rdc_log_format(char *buf, size_t n, bool json, int pid, enum rdc_level lvl,
		      const char *event, const struct rdc_kv *kv, size_t nkv)
{
	size_t pos = 0;
	char num[48];
	if (n)
		buf[0] = 0;
	if (json) {
		snprintf(num, sizeof num, "{\"pid\":%d,\"level\":", pid);
		put(buf, n, &pos, num);
		put_val(buf, n, &pos, lvl_name[lvl], true);
		put(buf, n, &pos, ",\"event\":");
		put_val(buf, n, &pos, event, true);
		for (size_t i = 0; i < nkv; i++) {
			put(buf, n, &pos, ",");
			put_val(buf, n, &pos, kv[i].k, true);
			put(buf, n, &pos, ":");
			if (kv[i].v) {
				put_val(buf, n, &pos, kv[i].v, true);
			} else {
				snprintf(num, sizeof num, "%lld", kv[i].n);
				put(buf, n, &pos, num);
			}
		}
		put(buf, n, &pos, "}\n");
	} else {
		snprintf(num, sizeof num, "rdnacompat[%d]: ", pid);
		put(buf, n, &pos, num);
		put(buf, n, &pos, lvl_name[lvl]);
		put(buf, n, &pos, ": ");
		put(buf, n, &pos, event);
		put(buf, n, &pos, ":");
		for (size_t i = 0; i < nkv; i++) {
			put(buf, n, &pos, " ");
			put(buf, n, &pos, kv[i].k);
			put(buf, n, &pos, "=");
			if (kv[i].v) {
				put_val(buf, n, &pos, kv[i].v, false);
			} else {
				snprintf(num, sizeof num, "%lld", kv[i].n);
				put(buf, n, &pos, num);
			}
		}
		put(buf, n, &pos, "\n");
	}
	/* A truncated line still ends with a newline. */
	if (n >= 2 && pos >= n) {
		buf[n - 2] = '\n';
		buf[n - 1] = 0;
		return n - 1;
	}
	return pos;
}

static void emit(const char *buf, size_t len)
{
	pthread_mutex_lock(&rdc_log_lock);
	while (len > 0) {
		ssize_t w = write(log_fd, buf, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		buf += w;
		len -= (size_t)w;
	}
	pthread_mutex_unlock(&rdc_log_lock);
}

void rdc_log_event(enum rdc_level lvl, const char *event, const struct rdc_kv *kv, size_t n)
{
	if (!rdc_log_enabled(lvl))
		return;
	int saved = errno;
	char buf[4096];
	size_t len = rdc_log_format(buf, sizeof buf, log_json, (int)getpid(), lvl, event, kv, n);
	emit(buf, len);
	errno = saved;
}

void rdc_logf(enum rdc_level lvl, const char *fmt, ...)
{
	if (!rdc_log_enabled(lvl))
		return;
	int saved = errno;
	char msg[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	char buf[4096];
	size_t len;
	if (log_json) {
		struct rdc_kv kv = RDC_KV_S("msg", msg);
		len = rdc_log_format(buf, sizeof buf, true, (int)getpid(), lvl, "message", &kv, 1);
	} else {
		len = (size_t)snprintf(buf, sizeof buf, "rdnacompat[%d]: %s: %s\n", (int)getpid(),
				       lvl_name[lvl], msg);
		if (len >= sizeof buf) {
			len = sizeof buf - 1;
			buf[len - 1] = '\n';
		}
	}
	emit(buf, len);
	errno = saved;
}

void rdc_log_block(const char *text, size_t len)
{
	int saved = errno;
	emit(text, len);
	errno = saved;
}
