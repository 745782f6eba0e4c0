// HdrCheck: reads an interval log with the Java HdrHistogram library and
// prints what it found, for tests/it_hdrlog_java.sh to compare with what
// rpcbench's C side says it wrote.
//
// Usage: java -cp hdrhistogram.jar:. HdrCheck LOG PCT_OUT
// Prints one "interval N start=S count=C max=M" line per interval and the
// line HistogramLogWriter would write for it up to the payload
// ("line N: start,length,max"), then
// "total=N p50=X p99=Y p99.9=Z max=M" for all intervals added together, and
// writes that sum's outputPercentileDistribution(5, 1.0) to PCT_OUT.
import java.io.ByteArrayOutputStream;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.util.Locale;

import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.HdrHistogram.HistogramLogWriter;

public class HdrCheck {
    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: HdrCheck LOG PCT_OUT");
            System.exit(2);
        }
        HistogramLogReader reader = new HistogramLogReader(args[0]);
        Histogram sum = null;
        int n = 0;
        EncodableHistogram e;
        while ((e = reader.nextIntervalHistogram()) != null) {
            if (!(e instanceof Histogram)) {
                System.err.println("interval " + (n + 1) + " is not an integer Histogram");
                System.exit(1);
            }
            Histogram h = (Histogram) e;
            n++;
            System.out.printf(Locale.US, "interval %d start=%.3f count=%d max=%d%n",
                    n, h.getStartTimeStamp() / 1000.0, h.getTotalCount(), h.getMaxValue());
            // The interval line as Java's own writer formats it, start
            // relative to the log's BaseTime and the max in milliseconds.
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            HistogramLogWriter writer = new HistogramLogWriter(new PrintStream(line));
            double start = h.getStartTimeStamp() / 1000.0 - reader.getStartTimeSec();
            writer.outputIntervalHistogram(start, start + (h.getEndTimeStamp() - h.getStartTimeStamp()) / 1000.0,
                    h, 1000.0);
            String text = line.toString("US-ASCII");
            System.out.printf("line %d: %s%n", n, text.substring(0, text.lastIndexOf(',')));
            if (sum == null) {
                sum = new Histogram(h.getLowestDiscernibleValue(), h.getHighestTrackableValue(),
                        h.getNumberOfSignificantValueDigits());
            }
            sum.add(h);
        }
        reader.close();
        if (sum == null) {
            System.err.println("no intervals read from " + args[0]);
            System.exit(1);
        }
        System.out.printf(Locale.US, "total=%d p50=%d p99=%d p99.9=%d max=%d%n",
                sum.getTotalCount(), sum.getValueAtPercentile(50.0),
                sum.getValueAtPercentile(99.0), sum.getValueAtPercentile(99.9),
                sum.getMaxValue());
        try (PrintStream out = new PrintStream(new FileOutputStream(args[1]))) {
            sum.outputPercentileDistribution(out, 5, 1.0);
        }
    }
}
