/* SPDX-License-Identifier: MIT */
/*
 * tablegen.c — compiles the tables/ TSV files into build/gen/tables_data.c.
 * Usage: tablegen TABLES_DIR OUT.c
 * (Bootstrap version: emits empty tables; replaced by the real generator.)
 */
#include <stdio.h>

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: tablegen TABLES_DIR OUT.c\n");
		return 2;
	}
	FILE *f = fopen(argv[2], "w");
	if (!f) {
		perror(argv[2]);
		return 1;
	}
	fprintf(f, "/* generated from %s by tools/tablegen — do not edit */\n", argv[1]);
	fprintf(f, "#include \"rdnacompat/tables.h\"\n"
		   "static const struct rdc_tables builtin = {0};\n"
		   "const struct rdc_tables *rdc_tables_builtin(void) { return &builtin; }\n");
	return fclose(f) == 0 ? 0 : 1;
}
