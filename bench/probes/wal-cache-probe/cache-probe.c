// SPDX-License-Identifier: GPL-2.0-or-later
// The cache probe of bench/RESULTS.md (wal): pwrite 8k at offset 0 + fdatasync
// for SECONDS; with LAYOUT the 16 MiB file is written and fsynced first; with
// DROP its pages are then dropped (POSIX_FADV_DONTNEED).  Prints ops/s.
//   cache-probe FILE SECONDS STAMP LAYOUT DROP
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec/1e9;}
int main(int c,char**v){int fd=open(v[1],O_RDWR|O_CREAT,0600);static char buf[16<<20];for(size_t i=0;i<sizeof buf;i++)buf[i]=rand();
 if(atoi(v[4])){pwrite(fd,buf,sizeof buf,0);fsync(fd);} if(c>5&&atoi(v[5]))posix_fadvise(fd,0,0,POSIX_FADV_DONTNEED);
 double s=atof(v[2]),t0=now();long n=0;int stamp=atoi(v[3]);
 while(now()-t0<s){if(stamp)memcpy(buf,&n,8);pwrite(fd,buf,8192,0);fdatasync(fd);n++;}
 printf("%.0f\n",n/(now()-t0));return 0;}
