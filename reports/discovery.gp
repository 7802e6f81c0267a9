# Discovery curve: distinct accesses learned over time, one line per subject.
# Arguments (gnuplot -c discovery.gp ...): ARG1 the data file (columns:
# seconds since start, cumulative count; blocks separated by two blank
# lines, one per subject), ARG2 the SVG to write, ARG3... the legend of
# each block (the subjects' basenames). Strings as given (never gnuplot
# code); enhanced text off, so _ ^ { } @ & ~ are drawn as themselves.
set terminal svg size 900,420 font "DejaVu Sans,11" background "#ffffff" noenhanced
set output ARG2
set title "Discovery curve: distinct accesses learned over time"
set xlabel "time since the first record (s)"
set ylabel "distinct accesses (tuples)"
set key left top
stats ARG1 using 2 nooutput
set yrange [0:(STATS_max > 0 ? STATS_max * 1.05 : 1)]
set grid
plot for [i=0:ARGC-3] ARG1 index i using 1:2 with steps lw 2 title ARGV[i+3]
