/* SPDX-License-Identifier: MIT */
/*
 * test_tool_fmtmatch.c — tools/rdnacompat/fmtmatch.c and diagtab.c on
 * patterns and tables written here: printf holes match what a program
 * filled in; blanks match a soft wrap and a line break may fall inside a
 * word (a hard wrap); word boundaries hold at both ends; colours are
 * cleaned away; a %s hole never crosses a line; diagtab finds a status by
 * name, text and value, drops a status name inside its own text but keeps a
 * status inside a library message, and refuses an unreviewed row.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diagtab.h"
#include "fmtmatch.h"

/* Does pattern pat match in text?  *found gets the matched span. */
static bool find(const char *pat, const char *text, char *found, size_t n)
{
	struct rdc_fmt f;
	if (rdc_fmt_compile(pat, &f) != 0)
		return false;
	char *clean = rdc_text_clean(text), *fold = rdc_text_fold(clean);
	size_t ms, me;
	bool ok = rdc_fmt_find(&f, clean, fold, 0, &ms, &me);
	if (ok && found)
		snprintf(found, n, "%.*s", (int)(me - ms), clean + ms);
	free(clean);
	free(fold);
	rdc_fmt_free(&f);
	return ok;
}

static void holes(void **state)
{
	(void)state;
	char got[200];
	assert_true(find("Unsupported HSA device %s (PCI ID %x) for ISA %s", "x: Unsupported HSA device gfx1031 (PCI ID 73df) for ISA amdgcn-amd-amdhsa--gfx1031\n", got, sizeof got));
	/* a last hole takes the rest of the line */
	assert_string_equal(got, "Unsupported HSA device gfx1031 (PCI ID 73df) for ISA amdgcn-amd-amdhsa--gfx1031");
	assert_true(find("allocating %.2f MiB on device %d: cudaMalloc failed: %s", "allocating 512.00 MiB on device 0: cudaMalloc failed: out of memory", NULL, 0));
	assert_true(find("at %p", "at (nil)", NULL, 0));
	/* %d needs digits, %x hex digits */
	assert_false(find("device %d failed", "device zero failed", NULL, 0));
	assert_false(find("module 0x%x gone", "module 0xZZ gone", NULL, 0));
	/* %% is a percent sign; {} a hole as %s */
	assert_true(find("100%% of {} used", "100% of VRAM used", NULL, 0));
	/* a %s hole stays within one line */
	assert_false(find("error %s failed", "error one\ntwo failed", NULL, 0));
}

static void wraps_and_boundaries(void **state)
{
	(void)state;
	/* a soft wrap (blank -> line break) and a hard wrap inside a word */
	assert_true(find("no kernel image is available for execution on the device",
			 "RuntimeError: HIP error: no kernel image is available\nfor execution on the device", NULL, 0));
	assert_true(find("invalid device function", "invalid dev\nice function", NULL, 0));
	/* word boundaries: "no error" is not "no errors", a name not a longer name */
	assert_false(find("no error", "no errors found", NULL, 0));
	assert_true(find("no error", "status: no error.", NULL, 0));
	assert_false(find("HSA_STATUS_ERROR", "HSA_STATUS_ERROR_INVALID_ISA", NULL, 0));
	/* case does not matter; colours are cleaned away */
	assert_true(find("Tensile host: No devices found", "\033[1;31mrocBLAS error: Could not initialize TENSILE host: no devices found\033[0m", NULL, 0));
	char *c = rdc_text_clean("\033[31mred\033[0m \033]0;title\007plain\r\n");
	assert_string_equal(c, "red plain\n");
	free(c);
	/* nothing literal: refused */
	struct rdc_fmt f;
	assert_int_equal(rdc_fmt_compile("%s %d", &f), -1);
}

static char dir[] = "/tmp/test_fmtmatch_XXXXXX";

static void put(const char *name, const char *text)
{
	char p[128];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static const char classes[] =
	"class\tcard\ttitle\tcheck\tdoes\tsources\n"
	"no-code\tyes\tNo code\tcheck\tdoes\thttps://example.org/a\n"
	"no-device\tpossible\tNo device\tcheck\tdoes\thttps://example.org/b\n";

static void tables(void **state)
{
	(void)state;
	assert_non_null(mkdtemp(dir));
	put("error-classes.tsv", classes);
	put("status.tsv", "# c\nkind\tname\tvalue\trelease\ttext\tclass\n"
			  "hip\thipErrorNoDevice\t100\t6.4\tno ROCm-capable device is detected\tno-device\n"
			  "hip\thipErrorNoBinaryForGpu\t209\t6.4\tno kernel image is available for execution on the device\tno-code\n"
			  "hsa\tHSA_STATUS_ERROR_INVALID_CODE_OBJECT\t0x1010\t6.4\tHSA_STATUS_ERROR_INVALID_CODE_OBJECT: The code object is invalid.\tno-code\n");
	put("lib-messages.tsv", "lib\trelease\tfile\ttext\tclass\n"
				"ggml\t6.4\tlibggml-hip.so\t%s: failed to initialize ROCm: %s\\n\tno-device\n"
				"ggml\t6.4\tlibggml-hip.so\tsome noise %s\tignore\n");
	struct rdc_diagtab t;
	struct rdc_diag d = { 0 };
	assert_int_equal(rdc_diagtab_load(dir, &t, &d), 0);
	assert_int_equal(t.n_msgs, 1);   /* the ignored row is not loaded */
	const char *text = "ggml_cuda_init: failed to initialize ROCm: no ROCm-capable device is detected\n"
			   "load: HSA_STATUS_ERROR_INVALID_CODE_OBJECT: The code object is invalid.\n"
			   "HIP error code 209\n";
	struct rdc_dhit *h;
	size_t n = rdc_diagtab_search(&t, text, &h);
	/* line 1: the message and the status inside it; line 2: the status by its text
	 * only (its name inside is dropped); line 3: the value */
	assert_int_equal(n, 4);
	assert_int_equal(h[0].how, RDC_DHOW_MESSAGE);
	assert_int_equal(h[0].line, 1);
	assert_int_equal(h[1].how, RDC_DHOW_TEXT);
	assert_int_equal(h[1].line, 1);
	assert_int_equal(h[2].how, RDC_DHOW_TEXT);
	assert_int_equal(h[2].line, 2);
	assert_int_equal(h[3].how, RDC_DHOW_VALUE);
	assert_int_equal(h[3].value, 209);
	assert_true(rdc_diagtab_value_row(&t, &h[3], 1));
	assert_false(rdc_diagtab_value_row(&t, &h[3], 0));
	free(h);
	/* the number alone: hex finds the ROCR status */
	n = rdc_diagtab_search(&t, " 0x1010\n", &h);
	assert_int_equal(n, 1);
	assert_true(h[0].hex && rdc_diagtab_value_row(&t, &h[0], 2));
	free(h);
	rdc_diagtab_free(&t);

	/* an unreviewed row, an unknown class and a bad value are refused with file:line */
	put("status.tsv", "kind\tname\tvalue\trelease\ttext\tclass\nhip\thipErrorX\t1\t6.4\tx\tunreviewed\n");
	assert_int_equal(rdc_diagtab_load(dir, &t, &d), RDC_E_FORMAT);
	assert_non_null(strstr(d.msg, "status.tsv:2: row not reviewed"));
	put("status.tsv", "kind\tname\tvalue\trelease\ttext\tclass\nhip\thipErrorX\t1\t6.4\tx\tnope\n");
	assert_int_equal(rdc_diagtab_load(dir, &t, &d), RDC_E_FORMAT);
	assert_non_null(strstr(d.msg, "class 'nope'"));
	put("status.tsv", "kind\tname\tvalue\trelease\ttext\tclass\nhip\thipErrorX\tten\t6.4\tx\tno-code\n");
	assert_int_equal(rdc_diagtab_load(dir, &t, &d), RDC_E_FORMAT);
	assert_non_null(strstr(d.msg, "value 'ten'"));
	char cmd[160];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(holes),
		cmocka_unit_test(wraps_and_boundaries),
		cmocka_unit_test(tables),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
