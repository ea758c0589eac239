/* SPDX-License-Identifier: MIT */
/*
 * rtcnames_data.c — tables/rtc-names.tsv embedded as text in the shim
 * (rdc_rtcnames_tsv, NUL-terminated), parsed on first use by rtcname.c.
 * The Makefile makes this object depend on the table.
 */
__asm__(".pushsection .rodata\n"
	".global rdc_rtcnames_tsv\n"
	".hidden rdc_rtcnames_tsv\n"
	".type rdc_rtcnames_tsv, @object\n"
	"rdc_rtcnames_tsv:\n"
	".incbin \"tables/rtc-names.tsv\"\n"
	".byte 0\n"
	".size rdc_rtcnames_tsv, . - rdc_rtcnames_tsv\n"
	".popsection\n");
