namespace BinaryXml.Tests;

/// <summary>
/// Folders for the tests that write files (the tool's inputs and outputs): each new, under one folder of the test
/// run's, which is deleted when the test process exits.
/// </summary>
internal static class TempFolders
{
    private static readonly Lazy<string> s_root = new(CreateRoot);
    private static int s_count;

    /// <summary>A new empty folder; returns its path.</summary>
    public static string Create()
        => Directory.CreateDirectory(Path.Combine(s_root.Value, Interlocked.Increment(ref s_count).ToString(System.Globalization.CultureInfo.InvariantCulture))).FullName;

    private static string CreateRoot()
    {
        string root = Directory.CreateTempSubdirectory("binaryxml-tests-").FullName;
        AppDomain.CurrentDomain.ProcessExit += (_, _) =>
        {
            // Best effort: a file still open (a scanner, say) leaves the folder for the system's own clean-up, and
            // the process is exiting, so there is no one to report it to.
            try { Directory.Delete(root, recursive: true); }
            catch (IOException) { }
            catch (UnauthorizedAccessException) { }
        };
        return root;
    }
}
