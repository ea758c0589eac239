/* SPDX-License-Identifier: MIT */
/*
 * test_datafile.c — which names the shim's file redirection may touch
 * (rdnacompat/datafile.h): the per-arch data files of rocBLAS, hipBLASLt
 * and MIOpen, by base name, and nothing else — a program's own file with a
 * target in its name or in a directory is not one (audit 2026-12-03 H1);
 * the rename changes the base name only.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "rdnacompat/datafile.h"
#include "rdnacompat/error.h"

static void test_library_files(void **state)
{
	(void)state;
	static const char *const tensile[] = {
		"/usr/lib/x86_64-linux-gnu/rocblas/5.0.0/library/TensileLibrary_lazy_gfx1031.dat",
		"/r/library/TensileLibrary_Type_HH_Contraction_l_Ailk_Bljk_Cijk_Dijk_gfx1031.co",
		"/r/library/TensileLibrary_Type_HH_Contraction_l_Ailk_Bljk_Cijk_Dijk_fallback_gfx1031.hsaco",
		"/r/library/TensileLibrary_Type_SS_Contraction_l_Alik_Bljk_Cijk_Dijk_gfx1031.dat",
		"/r/library/TensileLibrary_gfx1031.yaml",
		"/r/library/Kernels.so-000-gfx1031.hsaco",
		"/opt/hipblaslt/library/extop_gfx1031.co",
		"/r/library/*gfx1031*co",
		"TensileLibrary_lazy_gfx1031.dat",
	};
	for (size_t i = 0; i < sizeof tensile / sizeof tensile[0]; i++) {
		const char *lib = rdc_datafile_of(tensile[i], "gfx1031");
		if (!lib || strcmp(lib, "Tensile"))
			fail_msg("%s: %s, want Tensile", tensile[i], lib ? lib : "NULL");
	}
	static const char *const miopen[] = {
		"/usr/share/miopen/db/gfx1031_40.kdb",
		"/usr/share/miopen/db/gfx1031_40.HIP.fdb.txt",
		"/usr/share/miopen/db/gfx1031_40.db",
		"/usr/share/miopen/db/gfx1031.kdb",
		"/opt/rocm/lib/libMIOpenCKGroupedConv_gfx1031.so",
		"libMIOpenCKGroupedConv_gfx1031.so",
	};
	for (size_t i = 0; i < sizeof miopen / sizeof miopen[0]; i++) {
		const char *lib = rdc_datafile_of(miopen[i], "gfx1031");
		if (!lib || strcmp(lib, "MIOpen"))
			fail_msg("%s: %s, want MIOpen", miopen[i], lib ? lib : "NULL");
	}
}

static void test_not_library_files(void **state)
{
	(void)state;
	static const char *const other[] = {
		/* the audit's probe: a program's own file under a target-named directory */
		"/home/u/app/gfx1031/settings.txt",
		"/home/u/app/gfx1031/TensileLibrary.dat",          /* no target in the base name */
		"/home/u/.cache/app/cache_gfx1031.bin",
		"/home/u/app/gfx1031.txt",
		"/home/u/app/gfx1031.dat",                          /* .dat, but not Tensile's */
		"/home/u/app/settings_gfx1031.co",                  /* .co, but not Tensile's */
		"/home/u/app/gfx1031",
		/* another target that starts with the same digits */
		"/r/library/TensileLibrary_lazy_gfx10310.dat",
		"/r/library/TensileLibrary_lazy_gfx1031a.dat",
		"/usr/share/miopen/db/gfx10310.kdb",
		/* MIOpen's user databases and SQLite's companions */
		"/home/u/.config/miopen/gfx1031_40.HIP.3_5_0_abc.ufdb.txt",
		"/home/u/.config/miopen/gfx1031_40.HIP.3_5_0_abc.udb",
		"/home/u/.cache/miopen/3.5.0/gfx1031_40.ukdb",
		"/usr/share/miopen/db/gfx1031_40.db-journal",
		"/usr/share/miopen/db/gfx1031_40.kdb-wal",
		"/usr/share/miopen/db/gfx1031_40.kdb-shm",
		/* shared objects that are not MIOpen's CK library */
		"/home/u/app/foo_gfx1031.so",
		"/home/u/app/libfoo_gfx1031.so",
		"/opt/rocm/lib/libMIOpenCKGroupedConv_gfx1031.so.1",
		"/opt/rocm/lib/libMIOpenCKGroupedConv_gfx10310.so",
		"/opt/rocm/lib/libMIOpenCKGroupedConv_gfx1031_extra.txt",
		"/opt/rocm/lib/xlibMIOpenCKGroupedConv_gfx1031.so",
		/* a glob that is not the libraries' listing */
		"/home/u/app/*gfx1031*",
		"/home/u/app/*gfx1031*.txt",
		"",
	};
	for (size_t i = 0; i < sizeof other / sizeof other[0]; i++)
		if (rdc_datafile_of(other[i], "gfx1031"))
			fail_msg("%s: taken as a library's data file", other[i]);
	assert_null(rdc_datafile_of(NULL, "gfx1031"));
	assert_null(rdc_datafile_of("TensileLibrary_lazy_gfx1031.dat", NULL));
	assert_null(rdc_datafile_of("TensileLibrary_lazy_gfx1031.dat", "gfx1030"));
	assert_null(rdc_datafile_of("TensileLibrary_lazy_.dat", ""));
}

/* Only MIOpen's CK library is a shared object the dlopen hook may redirect. */
static void test_dso(void **state)
{
	(void)state;
	assert_true(rdc_datafile_is_dso("/opt/rocm/lib/libMIOpenCKGroupedConv_gfx1031.so", "gfx1031"));
	assert_true(rdc_datafile_is_dso("libMIOpenCKGroupedConv_gfx1103.so", "gfx1103"));
	assert_false(rdc_datafile_is_dso("/opt/rocm/lib/libMIOpenCKGroupedConv_gfx1031.so", "gfx1030"));
	assert_false(rdc_datafile_is_dso("/opt/rocm/lib/libMIOpenCKGroupedConv_gfx12-generic.so", "gfx1031"));
	assert_false(rdc_datafile_is_dso("/app/foo_gfx1031.so", "gfx1031"));
	assert_false(rdc_datafile_is_dso("/r/library/TensileLibrary_lazy_gfx1031.dat", "gfx1031"));
	assert_false(rdc_datafile_is_dso("/usr/share/miopen/db/gfx1031_40.kdb", "gfx1031"));
	assert_false(rdc_datafile_is_dso("/r/library/*gfx1031*co", "gfx1031"));
	assert_false(rdc_datafile_is_dso(NULL, "gfx1031"));
	assert_false(rdc_datafile_is_dso("libMIOpenCKGroupedConv_gfx1031.so", NULL));
	char out[256];
	assert_int_equal(rdc_datafile_rename("/opt/rocm/gfx1031/lib/libMIOpenCKGroupedConv_gfx1031.so",
					     "gfx1031", "gfx1030", out, sizeof out), 0);
	assert_string_equal(out, "/opt/rocm/gfx1031/lib/libMIOpenCKGroupedConv_gfx1030.so");
}

static void test_rename(void **state)
{
	(void)state;
	char out[256];
	/* the target in a directory stays; only the base name's changes */
	assert_int_equal(rdc_datafile_rename("/x/gfx1031/lib/TensileLibrary_lazy_gfx1031.dat", "gfx1031",
					     "gfx1030", out, sizeof out), 0);
	assert_string_equal(out, "/x/gfx1031/lib/TensileLibrary_lazy_gfx1030.dat");
	assert_int_equal(rdc_datafile_rename("/usr/share/miopen/db/gfx1031_40.HIP.fdb.txt", "gfx1031",
					     "gfx1030", out, sizeof out), 0);
	assert_string_equal(out, "/usr/share/miopen/db/gfx1030_40.HIP.fdb.txt");
	assert_int_equal(rdc_datafile_rename("/gfx1031/*gfx1031*co", "gfx1031", "gfx1030", out, sizeof out), 0);
	assert_string_equal(out, "/gfx1031/*gfx1030*co");
	assert_int_equal(rdc_datafile_rename("Kernels.so-000-gfx1103.hsaco", "gfx1103", "gfx1102", out,
					     sizeof out), 0);
	assert_string_equal(out, "Kernels.so-000-gfx1102.hsaco");
	/* not a data file: nothing written, NOTFOUND */
	assert_int_equal(rdc_datafile_rename("/app/gfx1031/settings.txt", "gfx1031", "gfx1030", out,
					     sizeof out), RDC_E_NOTFOUND);
	/* too small: RANGE */
	assert_int_equal(rdc_datafile_rename("/a/TensileLibrary_lazy_gfx1031.dat", "gfx1031", "gfx1030",
					     out, 20), RDC_E_RANGE);
	assert_int_equal(rdc_datafile_rename(NULL, "gfx1031", "gfx1030", out, sizeof out), RDC_E_INVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_library_files),
		cmocka_unit_test(test_not_library_files),
		cmocka_unit_test(test_dso),
		cmocka_unit_test(test_rename),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
