#include <stdlib.h>
#include <string.h>
int zz_probe(int n);
int zz_probe(int n)
{
	char buf[8];
	char *p = malloc(4);
	memset(buf, 0, 9);
	if (n)
		free(p);
	return buf[n] + (p ? 1 : 0);
}
