namespace BinaryXml.Tool;

internal static class Program
{
    private static int Main(string[] args) => BinxmlApp.Run(args, Console.Out, Console.Error, Console.OpenStandardInput);
}
