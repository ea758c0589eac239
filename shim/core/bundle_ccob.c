/* SPDX-License-Identifier: MIT */
/*
 * bundle_ccob.c — compressed clang offload bundles ("CCOB", versions 1-3),
 * read and written exactly as clang/lib/Driver/OffloadBundler.cpp does
 * (CompressedOffloadBundle::compress/decompress, RawCompressedBundleHeader):
 *
 *   off  v1               v2               v3
 *   0    "CCOB"           "CCOB"           "CCOB"
 *   4    u16 version      u16 version      u16 version
 *   6    u16 method       u16 method       u16 method     (0 zlib, 1 zstd)
 *   8    u32 uncompressed u32 total size   u64 total size
 *   12   u64 hash         u32 uncompressed
 *   16                    u64 hash         u64 uncompressed
 *   24                                     u64 hash
 *   data at 20 / 24 / 32; v1 has no total size (the stream ends itself).
 *
 * Decompression uses zlib and libzstd, streaming into a buffer that grows
 * with the real output (capped at the claimed size + 1), so a lying header
 * cannot make us allocate more than the data really expands to.  Before
 * that, the claim is checked against what the compressed bytes could
 * possibly expand to and against the zstd frame's own content size.  After:
 * the size must match exactly and the truncated MD5 must match.
 * Pure: memory in, memory out.
 */
#include "rdnacompat/bundle.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "bundle_internal.h"

/* Worst-case expansion ratios: deflate 1032:1 (RFC 1951 max: 258-byte match
 * per ~2 bits); zstd RLE blocks give 128 KiB per 4 bytes.  Slack covers
 * frame headers of tiny inputs. */
#define ZLIB_MAX_RATIO 1032u
#define ZSTD_MAX_RATIO 32768u
#define RATIO_SLACK 65536u

struct ccob {
	uint16_t version, method;
	uint64_t hdr_len;
	bool has_total;
	uint64_t total;   /* v2/v3 */
	uint64_t usize;
	uint64_t hash;
	uint64_t usize_at; /* where the uncompressed-size field is (messages) */
	uint64_t hash_at;
	uint64_t clen;     /* compressed bytes available: total-hdr, or avail-hdr (v1) */
};

static const char *method_name(unsigned m)
{
	return m == RDC_COMP_ZLIB ? "zlib" : "zstd";
}

static int read_header(const uint8_t *p, uint64_t avail, struct ccob *h, struct rdc_diag *d)
{
	memset(h, 0, sizeof *h);
	if (avail < RDC_CCOB_COMMON_LEN)
		return rdc_diag_set(d, RDC_E_TRUNCATED, 0,
				    "CCOB header needs 8 bytes for magic, version and method; "
				    "%llu available", (unsigned long long)avail);
	if (memcmp(p, RDC_CCOB_MAGIC, RDC_CCOB_MAGIC_LEN) != 0)
		return rdc_diag_set(d, RDC_E_FORMAT, 0, "no \"CCOB\" magic");
	h->version = rdc_ld16(p + 4);
	h->method = rdc_ld16(p + 6);
	switch (h->version) {
	case 1: h->hdr_len = RDC_CCOB_V1_HDR; break;
	case 2: h->hdr_len = RDC_CCOB_V2_HDR; break;
	case 3: h->hdr_len = RDC_CCOB_V3_HDR; break;
	default:
		return rdc_diag_set(d, RDC_E_UNSUPPORTED, 4,
				    "CCOB version %u is not one of 1, 2, 3", h->version);
	}
	if (avail < h->hdr_len)
		return rdc_diag_set(d, RDC_E_TRUNCATED, RDC_CCOB_COMMON_LEN,
				    "CCOB v%u header needs %llu bytes; %llu available", h->version,
				    (unsigned long long)h->hdr_len, (unsigned long long)avail);
	if (h->method != RDC_COMP_ZLIB && h->method != RDC_COMP_ZSTD)
		return rdc_diag_set(d, RDC_E_UNSUPPORTED, 6,
				    "CCOB compression method %u is neither 0 (zlib) nor 1 (zstd)",
				    h->method);
	switch (h->version) {
	case 1:
		h->usize = rdc_ld32(p + 8);
		h->usize_at = 8;
		h->hash = rdc_ld64(p + 12);
		h->hash_at = 12;
		break;
	case 2:
		h->has_total = true;
		h->total = rdc_ld32(p + 8);
		h->usize = rdc_ld32(p + 12);
		h->usize_at = 12;
		h->hash = rdc_ld64(p + 16);
		h->hash_at = 16;
		break;
	default:
		h->has_total = true;
		h->total = rdc_ld64(p + 8);
		h->usize = rdc_ld64(p + 16);
		h->usize_at = 16;
		h->hash = rdc_ld64(p + 24);
		h->hash_at = 24;
		break;
	}
	if (h->has_total) {
		if (h->total < h->hdr_len)
			return rdc_diag_set(d, RDC_E_RANGE, 8,
					    "CCOB v%u total size %llu is smaller than its %llu-byte "
					    "header", h->version, (unsigned long long)h->total,
					    (unsigned long long)h->hdr_len);
		if (h->total > avail)
			return rdc_diag_set(d, RDC_E_RANGE, 8,
					    "CCOB v%u total size %llu runs past the %llu bytes "
					    "available", h->version, (unsigned long long)h->total,
					    (unsigned long long)avail);
		h->clen = h->total - h->hdr_len;
	} else {
		h->clen = avail - h->hdr_len;
	}
	return 0;
}

/* Refuse sizes no stream of `clen` bytes can inflate to, before allocating. */
static int plausible(const struct ccob *h, uint64_t clen, struct rdc_diag *d)
{
	uint64_t ratio = h->method == RDC_COMP_ZLIB ? ZLIB_MAX_RATIO : ZSTD_MAX_RATIO;
	uint64_t max = clen > (UINT64_MAX - RATIO_SLACK) / ratio ? UINT64_MAX
								 : clen * ratio + RATIO_SLACK;
	if (h->usize > max || h->usize > SIZE_MAX - 1)
		return rdc_diag_set(d, RDC_E_CORRUPT, h->usize_at,
				    "CCOB claims %llu uncompressed bytes from %llu %s-compressed "
				    "bytes, more than %s can expand to",
				    (unsigned long long)h->usize, (unsigned long long)clen,
				    method_name(h->method), method_name(h->method));
	return 0;
}

/* Output that grows with what the stream really produces, up to the claimed
 * size + 1 (one byte more detects a stream longer than its header says).
 * buf == NULL (extent only): a fixed scratch buffer is reused instead. */
struct sink {
	uint8_t *buf;
	size_t cap;
	uint64_t limit; /* claimed size + 1 */
	uint64_t done;
	bool count_only;
	uint8_t scratch[16384];
};

#define SINK_FIRST (1u << 20)

/* Room for the next write: sets *p, *n.  0, or RDC_E_NOMEM. */
static int sink_room(struct sink *k, uint8_t **p, size_t *n)
{
	if (k->count_only) {
		*p = k->scratch;
		*n = sizeof k->scratch;
		return 0;
	}
	if (k->done == k->cap) {
		uint64_t want = k->cap ? (uint64_t)k->cap * 2 : SINK_FIRST;
		if (want > k->limit)
			want = k->limit;
		if (want <= k->cap || want > SIZE_MAX)
			return RDC_E_NOMEM; /* cannot happen while done < limit */
		uint8_t *nb = realloc(k->buf, (size_t)want);
		if (!nb)
			return RDC_E_NOMEM;
		k->buf = nb;
		k->cap = (size_t)want;
	}
	*p = k->buf + k->done;
	*n = k->cap - (size_t)k->done;
	return 0;
}

/* Inflate a zlib stream of at most clen bytes into k.  *consumed: input
 * bytes up to the stream end. */
static int inflate_all(const uint8_t *src, uint64_t clen, struct sink *k, uint64_t usize,
		       uint64_t hdr_len, uint64_t *consumed, struct rdc_diag *d)
{
	z_stream s;
	memset(&s, 0, sizeof s);
	if (inflateInit(&s) != Z_OK)
		return rdc_diag_set(d, RDC_E_NOMEM, hdr_len, "zlib inflateInit failed");
	uint64_t in_left = clen, in_done = 0;
	int rc = 0;
	for (;;) {
		if (s.avail_in == 0 && in_left > 0) {
			uInt n = in_left > UINT_MAX ? UINT_MAX : (uInt)in_left;
			s.next_in = (Bytef *)(uintptr_t)(src + (clen - in_left));
			s.avail_in = n;
			in_left -= n;
		}
		uint8_t *op;
		size_t on;
		if (sink_room(k, &op, &on)) {
			rc = rdc_diag_set(d, RDC_E_NOMEM, hdr_len,
					  "out of memory after inflating %llu bytes",
					  (unsigned long long)k->done);
			break;
		}
		s.next_out = op;
		s.avail_out = on > UINT_MAX ? UINT_MAX : (uInt)on;
		uInt before_out = s.avail_out, before_in = s.avail_in;
		int zr = inflate(&s, Z_NO_FLUSH);
		k->done += before_out - s.avail_out;
		in_done += before_in - s.avail_in;
		if (k->done > usize) {
			rc = rdc_diag_set(d, RDC_E_CORRUPT, hdr_len,
					  "zlib stream inflates to more than the %llu bytes the CCOB "
					  "header claims", (unsigned long long)usize);
			break;
		}
		if (zr == Z_STREAM_END)
			break;
		if (zr == Z_BUF_ERROR && s.avail_in == 0 && in_left == 0) {
			rc = rdc_diag_set(d, RDC_E_CORRUPT, hdr_len + in_done,
					  "zlib stream ends early, after %llu compressed bytes (%llu "
					  "inflated)", (unsigned long long)in_done,
					  (unsigned long long)k->done);
			break;
		}
		if (zr != Z_OK && zr != Z_BUF_ERROR) {
			rc = rdc_diag_set(d, RDC_E_CORRUPT, hdr_len + in_done,
					  "zlib stream is corrupt: %s", s.msg ? s.msg : "inflate error");
			break;
		}
	}
	inflateEnd(&s);
	*consumed = in_done;
	return rc;
}

/* Decompress zstd frame(s) filling exactly [src, src+clen) into k. */
static int unzstd(const uint8_t *src, uint64_t clen, struct sink *k, uint64_t usize,
		  uint64_t hdr_len, struct rdc_diag *d)
{
	ZSTD_DCtx *z = ZSTD_createDCtx();
	if (!z)
		return rdc_diag_set(d, RDC_E_NOMEM, hdr_len, "ZSTD_createDCtx failed");
	ZSTD_inBuffer in = { src, (size_t)clen, 0 };
	size_t ret = 1;
	int rc = 0;
	for (;;) {
		if (in.pos == in.size && ret == 0)
			break;
		uint8_t *op;
		size_t on;
		if (sink_room(k, &op, &on)) {
			rc = rdc_diag_set(d, RDC_E_NOMEM, hdr_len,
					  "out of memory after decompressing %llu bytes",
					  (unsigned long long)k->done);
			break;
		}
		ZSTD_outBuffer out = { op, on, 0 };
		size_t in_before = in.pos;
		ret = ZSTD_decompressStream(z, &out, &in);
		k->done += out.pos;
		if (ZSTD_isError(ret)) {
			rc = rdc_diag_set(d, RDC_E_CORRUPT, hdr_len + in.pos, "zstd data is corrupt: %s",
					  ZSTD_getErrorName(ret));
			break;
		}
		if (k->done > usize) {
			rc = rdc_diag_set(d, RDC_E_CORRUPT, hdr_len,
					  "zstd data decompresses to more than the %llu bytes the "
					  "CCOB header claims", (unsigned long long)usize);
			break;
		}
		if (in.pos == in.size && ret != 0 && out.pos == 0 && in.pos == in_before) {
			rc = rdc_diag_set(d, RDC_E_CORRUPT, hdr_len + in.pos,
					  "zstd data ends inside a frame (%llu bytes decompressed)",
					  (unsigned long long)k->done);
			break;
		}
	}
	ZSTD_freeDCtx(z);
	return rc;
}

static int size_mismatch(const struct ccob *h, uint64_t got, struct rdc_diag *d)
{
	return rdc_diag_set(d, RDC_E_CORRUPT, h->usize_at,
			    "CCOB header claims %llu uncompressed bytes; the %s data holds %llu",
			    (unsigned long long)h->usize, method_name(h->method),
			    (unsigned long long)got);
}

/* A claimed size up to this many times the compressed size (or up to
 * ONESHOT_FLOOR) is allocated up front and the frames decoded straight into
 * it (ZSTD_decompressDCtx): no window buffer, no copy out of it, one
 * allocation.  Code objects compress 3-20x.  A larger claim, possible only
 * for data that compresses better than any code object, takes the growing
 * sink, so memory still follows the real output there. */
#define ONESHOT_RATIO 256u
#define ONESHOT_FLOOR (64u << 20)

static bool oneshot_ok(uint64_t usize, uint64_t clen)
{
	return usize <= ONESHOT_FLOOR || (clen <= UINT64_MAX / ONESHOT_RATIO &&
					  usize <= clen * ONESHOT_RATIO);
}

/* Decode every zstd frame of src[0..clen) into a new buffer of exactly
 * h->usize bytes (*out, malloc'd; freed here on error). */
static int unzstd_oneshot(const struct ccob *h, const uint8_t *src, uint64_t clen,
			  uint8_t **out, struct rdc_diag *d)
{
	uint8_t *buf = malloc(h->usize ? (size_t)h->usize : 1);
	ZSTD_DCtx *z = buf ? ZSTD_createDCtx() : NULL;
	if (!z) {
		free(buf);
		return rdc_diag_set(d, RDC_E_NOMEM, h->hdr_len, "out of memory for %llu "
				    "decompressed bytes", (unsigned long long)h->usize);
	}
	size_t got = ZSTD_decompressDCtx(z, buf, (size_t)h->usize, src, (size_t)clen);
	ZSTD_freeDCtx(z);
	int rc = 0;
	if (ZSTD_isError(got) && ZSTD_getErrorCode(got) == ZSTD_error_dstSize_tooSmall)
		rc = rdc_diag_set(d, RDC_E_CORRUPT, h->hdr_len,
				  "zstd data decompresses to more than the %llu bytes the CCOB "
				  "header claims", (unsigned long long)h->usize);
	else if (ZSTD_isError(got))
		rc = rdc_diag_set(d, RDC_E_CORRUPT, h->hdr_len, "zstd data is corrupt: %s",
				  ZSTD_getErrorName(got));
	else if (got != h->usize)
		rc = size_mismatch(h, got, d);
	if (rc) {
		free(buf);
		return rc;
	}
	*out = buf;
	return 0;
}

/* Where the compressed data of a v1 zstd CCOB ends. */
static int zstd_frame_len(const uint8_t *src, uint64_t clen, uint64_t hdr_len, uint64_t *len,
			  struct rdc_diag *d)
{
	size_t r = ZSTD_findFrameCompressedSize(src, (size_t)clen);
	if (ZSTD_isError(r))
		return rdc_diag_set(d, RDC_E_CORRUPT, hdr_len, "zstd frame is unreadable: %s",
				    ZSTD_getErrorName(r));
	*len = r;
	return 0;
}


int rdc_bundle_extent_ccob_(const uint8_t *p, uint64_t avail, uint64_t *extent,
			    struct rdc_diag *d)
{
	struct ccob h;
	int rc = read_header(p, avail, &h, d);
	if (rc)
		return rc;
	if (h.has_total) {
		*extent = h.total;
		return 0;
	}
	const uint8_t *src = p + h.hdr_len;
	uint64_t len = 0;
	if (h.method == RDC_COMP_ZSTD) {
		rc = zstd_frame_len(src, h.clen, h.hdr_len, &len, d);
	} else {
		struct sink *k = calloc(1, sizeof *k);
		if (!k)
			return rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "out of memory");
		k->count_only = true;
		rc = plausible(&h, h.clen, d);
		if (!rc)
			rc = inflate_all(src, h.clen, k, h.usize, h.hdr_len, &len, d);
		if (!rc && k->done != h.usize)
			rc = size_mismatch(&h, k->done, d);
		free(k);
	}
	if (rc)
		return rc;
	*extent = h.hdr_len + len;
	return 0;
}

/* `b`, parsed from the decompressed bytes `buf`, takes them over and gets
 * the CCOB's own fields. */
static void own(struct rdc_bundle *b, const struct ccob *h, uint64_t clen, uint8_t *buf)
{
	b->owned_ = buf;
	b->compressed = true;
	b->ccob_version = h->version;
	b->method = h->method;
	b->uncompressed_size = h->usize;
	b->hash = h->hash;
	b->extent = h->hdr_len + clen;
}

/* The decompressed payload `buf` (h->usize bytes, taken over: freed on
 * error, owned by `b` on success): hash check, plain-bundle parse, fields. */
static int finish(const struct ccob *h, uint64_t clen, bool check_hash, uint8_t *buf,
		  struct rdc_bundle *b, struct rdc_diag *d)
{
	int rc = 0;
	if (check_hash) {
		uint64_t got = rdc_bundle_hash(buf, (size_t)h->usize);
		if (got != h->hash)
			rc = rdc_diag_set(d, RDC_E_CORRUPT, h->hash_at,
					  "CCOB hash 0x%016llx does not match the MD5 of the "
					  "decompressed bundle (0x%016llx)",
					  (unsigned long long)h->hash, (unsigned long long)got);
	}
	if (!rc)
		rc = rdc_bundle_parse_plain_(buf, h->usize, h->usize, "decompressed", b, d);
	if (rc) {
		free(buf);
		return rc;
	}
	own(b, h, clen, buf);
	return 0;
}

/* Header, compressed payload and its length, checked as far as they can be
 * without decompressing (v1 zlib: *clen is what is available). */
static int payload(const uint8_t *p, uint64_t avail, struct ccob *h, const uint8_t **srcp,
		   uint64_t *clenp, struct rdc_diag *d)
{
	int rc = read_header(p, avail, h, d);
	if (rc)
		return rc;
	const uint8_t *src = p + h->hdr_len;
	uint64_t clen = h->clen;
	if (h->method == RDC_COMP_ZSTD) {
		unsigned long long cs = ZSTD_getFrameContentSize(src, (size_t)clen);
		if (cs == ZSTD_CONTENTSIZE_ERROR)
			return rdc_diag_set(d, RDC_E_CORRUPT, h->hdr_len,
					    "CCOB data is not a zstd frame");
		if (cs != ZSTD_CONTENTSIZE_UNKNOWN && cs != h->usize)
			return rdc_diag_set(d, RDC_E_CORRUPT, h->usize_at,
					    "CCOB header claims %llu uncompressed bytes; the zstd "
					    "frame says %llu", (unsigned long long)h->usize, cs);
		if (!h->has_total) {
			rc = zstd_frame_len(src, clen, h->hdr_len, &clen, d);
			if (rc)
				return rc;
		}
	}
	rc = plausible(h, clen, d);
	if (rc)
		return rc;
	*srcp = src;
	*clenp = clen;
	return 0;
}

/* The first `want` decompressed bytes into buf (fewer when the stream ends
 * or stops making progress first); *got, their count. */
static int prefix(const struct ccob *h, const uint8_t *src, uint64_t clen, uint8_t *buf,
		  size_t want, size_t *got, struct rdc_diag *d)
{
	int rc = 0;
	*got = 0;
	if (h->method == RDC_COMP_ZSTD) {
		ZSTD_DCtx *z = ZSTD_createDCtx();
		if (!z)
			return rdc_diag_set(d, RDC_E_NOMEM, h->hdr_len, "ZSTD_createDCtx failed");
		ZSTD_inBuffer in = { src, (size_t)clen, 0 };
		ZSTD_outBuffer out = { buf, want, 0 };
		while (out.pos < out.size) {
			size_t in0 = in.pos, out0 = out.pos;
			size_t r = ZSTD_decompressStream(z, &out, &in);
			if (ZSTD_isError(r)) {
				rc = rdc_diag_set(d, RDC_E_CORRUPT, h->hdr_len, "zstd data is corrupt: %s",
						  ZSTD_getErrorName(r));
				break;
			}
			if ((r == 0 && in.pos == in.size) || (in.pos == in0 && out.pos == out0))
				break;
		}
		ZSTD_freeDCtx(z);
		*got = out.pos;
		return rc;
	}
	z_stream s;
	memset(&s, 0, sizeof s);
	if (inflateInit(&s) != Z_OK)
		return rdc_diag_set(d, RDC_E_NOMEM, h->hdr_len, "zlib inflateInit failed");
	s.next_in = (Bytef *)(uintptr_t)src;
	s.avail_in = clen > UINT_MAX ? UINT_MAX : (uInt)clen;
	s.next_out = buf;
	s.avail_out = (uInt)want;
	while (s.avail_out > 0) {
		uInt in0 = s.avail_in, out0 = s.avail_out;
		int r = inflate(&s, Z_NO_FLUSH);
		if (r == Z_STREAM_END)
			break;
		if (r != Z_OK && r != Z_BUF_ERROR) {
			rc = rdc_diag_set(d, RDC_E_CORRUPT, h->hdr_len, "zlib data is corrupt: %s",
					  s.msg ? s.msg : "error");
			break;
		}
		if (s.avail_in == in0 && s.avail_out == out0)
			break;
	}
	*got = want - s.avail_out;
	inflateEnd(&s);
	return rc;
}

int rdc_bundle_parse_ccob_table_(const uint8_t *p, uint64_t avail, struct rdc_bundle *b,
				 struct rdc_diag *d)
{
	struct ccob h;
	const uint8_t *src;
	uint64_t clen;
	int rc = payload(p, avail, &h, &src, &clen, d);
	if (rc)
		return rc;
	if (h.method == RDC_COMP_ZLIB && !h.has_total)
		return rdc_diag_set(d, RDC_E_UNSUPPORTED, h.hdr_len, "a v1 zlib CCOB's end is "
				    "known only once inflated: read it whole");
	size_t want = h.usize < RDC_TABLE_PREFIX ? (size_t)h.usize : RDC_TABLE_PREFIX;
	uint8_t *buf = malloc(want ? want : 1);
	if (!buf)
		return rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "out of memory");
	size_t got = 0;
	rc = prefix(&h, src, clen, buf, want, &got, d);
	if (!rc)
		rc = rdc_bundle_parse_plain_(buf, got, h.usize, "decompressed", b, d);
	if (rc) {
		free(buf);
		if (rc == RDC_E_NOMEM || got == h.usize)
			return rc;
		/* the table may lie past the prefix, or the data be damaged:
		 * a whole read says which */
		return rdc_diag_set(d, RDC_E_UNSUPPORTED, h.hdr_len, "the entry table is not "
				    "readable from the first %zu decompressed bytes", got);
	}
	own(b, &h, clen, buf);
	return 0;
}

int rdc_bundle_parse_ccob_(const uint8_t *p, uint64_t avail, bool check_hash,
			   struct rdc_bundle *b, struct rdc_diag *d)
{
	struct ccob h;
	const uint8_t *src;
	uint64_t clen;
	int rc = payload(p, avail, &h, &src, &clen, d);
	if (rc)
		return rc;
	if (h.method == RDC_COMP_ZSTD && oneshot_ok(h.usize, clen)) {
		uint8_t *buf = NULL;
		rc = unzstd_oneshot(&h, src, clen, &buf, d);
		if (!rc)
			rc = finish(&h, clen, check_hash, buf, b, d);
		return rc;
	}
	/* Memory follows the real output, never the header's claim alone. */
	struct sink *k = calloc(1, sizeof *k);
	if (!k)
		return rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "out of memory");
	k->limit = h.usize + 1;
	if (h.method == RDC_COMP_ZSTD) {
		rc = unzstd(src, clen, k, h.usize, h.hdr_len, d);
	} else {
		uint64_t used = 0;
		rc = inflate_all(src, clen, k, h.usize, h.hdr_len, &used, d);
		if (!rc && h.has_total && used != clen)
			rc = rdc_diag_set(d, RDC_E_CORRUPT, h.hdr_len + used,
					  "%llu bytes follow the zlib stream inside the CCOB's total "
					  "size %llu", (unsigned long long)(clen - used),
					  (unsigned long long)h.total);
		clen = used;
	}
	if (!rc && k->done != h.usize)
		rc = size_mismatch(&h, k->done, d);
	uint8_t *buf = k->buf;
	if (!rc && !buf) {
		buf = malloc(1); /* an empty payload */
		if (!buf)
			rc = rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "out of memory");
	}
	free(k);
	if (rc) {
		free(buf);
		return rc;
	}
	return finish(&h, clen, check_hash, buf, b, d);
}

static int compress_zlib(const void *in, size_t len, uint8_t *out, size_t cap, size_t *clen,
			 struct rdc_diag *d)
{
	uLongf n = cap;
	int zr = compress2(out, &n, in, (uLong)len, 6);
	if (zr != Z_OK)
		return rdc_diag_set(d, zr == Z_MEM_ERROR ? RDC_E_NOMEM : RDC_E_INVAL, RDC_NO_OFFSET,
				    "zlib compress2 failed (%d)", zr);
	*clen = n;
	return 0;
}

static int compress_zstd(const void *in, size_t len, uint8_t *out, size_t cap, size_t *clen,
			 struct rdc_diag *d)
{
	ZSTD_CCtx *c = ZSTD_createCCtx();
	if (!c)
		return rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "ZSTD_createCCtx failed");
	size_t r = ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, 3);
	if (!ZSTD_isError(r))
		r = ZSTD_CCtx_setParameter(c, ZSTD_c_enableLongDistanceMatching, 1);
	if (!ZSTD_isError(r))
		r = ZSTD_compress2(c, out, cap, in, len);
	ZSTD_freeCCtx(c);
	if (ZSTD_isError(r))
		return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "zstd compression failed: %s",
				    ZSTD_getErrorName(r));
	*clen = r;
	return 0;
}

int rdc_bundle_compress(const void *plain, size_t len, int method, unsigned version,
			uint8_t **out, size_t *out_len, struct rdc_diag *d)
{
	if (!out || !out_len || (!plain && len))
		return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "no input or no output");
	*out = NULL;
	*out_len = 0;
	if (version < 1 || version > 3)
		return rdc_diag_set(d, RDC_E_UNSUPPORTED, RDC_NO_OFFSET,
				    "CCOB version %u is not one of 1, 2, 3", version);
	if (method != RDC_COMP_ZLIB && method != RDC_COMP_ZSTD)
		return rdc_diag_set(d, RDC_E_UNSUPPORTED, RDC_NO_OFFSET,
				    "compression method %d is neither zlib nor zstd", method);
	size_t hdr = version == 1 ? RDC_CCOB_V1_HDR : version == 2 ? RDC_CCOB_V2_HDR : RDC_CCOB_V3_HDR;
	if (version < 3 && (uint64_t)len > UINT32_MAX)
		return rdc_diag_set(d, RDC_E_RANGE, RDC_NO_OFFSET,
				    "%zu bytes exceed the 32-bit uncompressed size of CCOB v%u", len,
				    version);
	size_t bound = method == RDC_COMP_ZLIB ? (size_t)compressBound((uLong)len)
					       : ZSTD_compressBound(len);
	if (ZSTD_isError(bound) || bound > SIZE_MAX - hdr)
		return rdc_diag_set(d, RDC_E_RANGE, RDC_NO_OFFSET, "%zu bytes are too many", len);
	uint8_t *buf = malloc(hdr + bound);
	if (!buf)
		return rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "out of memory");
	static const uint8_t empty[1];
	const void *src = len ? plain : empty;
	size_t clen = 0;
	int rc = method == RDC_COMP_ZLIB ? compress_zlib(src, len, buf + hdr, bound, &clen, d)
					 : compress_zstd(src, len, buf + hdr, bound, &clen, d);
	uint64_t total = (uint64_t)hdr + clen;
	if (!rc && version == 2 && total > UINT32_MAX)
		rc = rdc_diag_set(d, RDC_E_RANGE, RDC_NO_OFFSET,
				  "CCOB v2 total size %llu exceeds 32 bits", (unsigned long long)total);
	if (rc) {
		free(buf);
		return rc;
	}
	memcpy(buf, RDC_CCOB_MAGIC, RDC_CCOB_MAGIC_LEN);
	rdc_st16(buf + 4, (uint16_t)version);
	rdc_st16(buf + 6, (uint16_t)method);
	uint64_t hash = rdc_bundle_hash(src, len);
	if (version == 1) {
		rdc_st32(buf + 8, (uint32_t)len);
		rdc_st64(buf + 12, hash);
	} else if (version == 2) {
		rdc_st32(buf + 8, (uint32_t)total);
		rdc_st32(buf + 12, (uint32_t)len);
		rdc_st64(buf + 16, hash);
	} else {
		rdc_st64(buf + 8, total);
		rdc_st64(buf + 16, (uint64_t)len);
		rdc_st64(buf + 24, hash);
	}
	*out = buf;
	*out_len = (size_t)total;
	return 0;
}
