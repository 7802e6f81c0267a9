# Discovery curve: distinct accesses learned over time, one line per subject.
# Variables: datafile (columns: seconds since start, cumulative count;
# blocks separated by two blank lines, one per subject), titles (the
# subjects, separated by "|"), outfile, nblocks.
set terminal svg size 900,420 font "DejaVu Sans,11" background "#ffffff"
set output outfile
set title "Discovery curve: distinct accesses learned over time"
set xlabel "time since the first record (s)"
set ylabel "distinct accesses (tuples)"
set key left top
stats datafile using 2 nooutput
set yrange [0:(STATS_max > 0 ? STATS_max * 1.05 : 1)]
set grid
plot for [i=0:nblocks-1] datafile index i using 1:2 with steps lw 2 title word(titles, i+1)
