// SPDX-License-Identifier: MIT
// hsaload.c — loads a code object straight through ROCR (no HIP), the way a
// library's own loader does: reader from memory, executable, load for the
// first GPU agent, freeze, look up "fill_iota.kd".  Prints what the agent
// says it is (name, ISAs, name lengths), then the statuses.
// Usage: hsaload FILE [mem|file] (reader from memory, or from the file's fd).
#include <hsa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

static hsa_status_t pick_gpu(hsa_agent_t a, void *arg)
{
	hsa_device_type_t t;
	hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t);
	if (t == HSA_DEVICE_TYPE_GPU) {
		*(hsa_agent_t *)arg = a;
		return HSA_STATUS_INFO_BREAK;
	}
	return HSA_STATUS_SUCCESS;
}

static hsa_status_t print_isa(hsa_isa_t isa, void *arg)
{
	uint32_t len = 0;
	char name[256] = "";
	hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME_LENGTH, &len);
	if (len < sizeof name)
		hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME, name);
	printf(" isa%d %s len %u", (*(int *)arg)++, name, len);
	return HSA_STATUS_SUCCESS;
}

int main(int argc, char **argv)
{
	if (argc < 2 || hsa_init() != HSA_STATUS_SUCCESS)
		return 2;
	FILE *f = fopen(argv[1], "rb");
	if (!f)
		return 2;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	void *img = malloc(n);
	if (fread(img, 1, n, f) != (size_t)n)
		return 2;
	fclose(f);
	hsa_agent_t gpu = { 0 };
	hsa_iterate_agents(pick_gpu, &gpu);
	char agent[64] = "";
	hsa_agent_get_info(gpu, HSA_AGENT_INFO_NAME, agent);
	int k = 0;
	printf("agent %s", agent);
	hsa_agent_iterate_isas(gpu, print_isa, &k);
	printf(" isas %d\n", k);
	hsa_code_object_reader_t r;
	hsa_executable_t x;
	hsa_status_t s1;
	int fd = -1;
	if (argc > 2 && strcmp(argv[2], "file") == 0) {
		fd = open(argv[1], O_RDONLY);
		s1 = hsa_code_object_reader_create_from_file(fd, &r);
	} else {
		s1 = hsa_code_object_reader_create_from_memory(img, n, &r);
	}
	hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL, &x);
	hsa_status_t s2 = hsa_executable_load_agent_code_object(x, gpu, r, NULL, NULL);
	hsa_status_t s3 = s2 == HSA_STATUS_SUCCESS ? hsa_executable_freeze(x, NULL) : s2;
	hsa_executable_symbol_t sym;
	hsa_status_t s4 = s3 == HSA_STATUS_SUCCESS
				  ? hsa_executable_get_symbol_by_name(x, "fill_iota.kd", &gpu, &sym) : s3;
	printf("reader 0x%x load 0x%x freeze 0x%x symbol 0x%x\n", s1, s2, s3, s4);
	/* The results are out before teardown, whatever teardown does. */
	fflush(stdout);
	hsa_executable_destroy(x);
	hsa_code_object_reader_destroy(r);
	if (fd >= 0)
		close(fd);
	free(img);
	hsa_shut_down();
	return s4 == HSA_STATUS_SUCCESS ? 0 : 1;
}
