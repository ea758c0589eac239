// SPDX-License-Identifier: MIT
// miopen_main.cpp — runs the stand-in libMIOpen.so.1 on the code object argv[1].
extern "C" int rdc_miopen_run(const char *path);
int main(int argc, char **argv)
{
	return argc == 2 ? rdc_miopen_run(argv[1]) : 2;
}
