// Prints Squirrel.Windows' own reading of a RELEASES file (stdin) as one JSON object per line.
// Squirrel-Mono.exe is ILMerged with its types internalized, so ReleaseEntry is reached by reflection.
using System;
using System.Collections;
using System.Globalization;
using System.Reflection;

class ReadReleases {
  static string Quote(object value) { return "\"" + value.ToString().Replace("\\", "\\\\").Replace("\"", "\\\"") + "\""; }

  static int Main(string[] args) {
    var entryType = Assembly.LoadFrom(args[0]).GetType("Squirrel.ReleaseEntry", true);
    var parse = entryType.GetMethod("ParseReleaseFile", BindingFlags.Public | BindingFlags.Static);
    Func<object, string, object> read = (entry, name) => entryType.GetProperty(name).GetValue(entry, null);
    try {
      foreach (var entry in (IEnumerable)parse.Invoke(null, new object[] { Console.In.ReadToEnd() })) {
        var staging = read(entry, "StagingPercentage");
        Console.WriteLine("{\"sha1\":" + Quote(read(entry, "SHA1")) + ",\"fileName\":" + Quote(read(entry, "Filename"))
          + ",\"size\":" + read(entry, "Filesize") + ",\"isDelta\":" + ((bool)read(entry, "IsDelta") ? "true" : "false")
          + ",\"version\":" + Quote(read(entry, "Version"))
          + ",\"stagingPercentage\":" + (staging == null ? "null" : ((float)staging).ToString("R", CultureInfo.InvariantCulture)) + "}");
      }
      return 0;
    } catch (TargetInvocationException error) {
      Console.Error.WriteLine(error.InnerException.Message);
      return 1;
    }
  }
}
