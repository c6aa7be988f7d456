using System.Runtime.Serialization;

namespace BinaryXml.Benchmarks;

/// <summary>
/// DataContractSerializer payloads shaped like dotnet/performance's serializer benchmarks (benchmarks.md §2): a login
/// form of 3 fields, a location of 9, an index page with 20 events of 8 fields.
/// </summary>
internal static class Payloads
{
    public static object Create(string name) => name switch
    {
        "login" => new LoginViewModel { Email = "name.surname@example.com", Password = "abcdefgh123456!@", RememberMe = true },
        "location" => NewLocation(1),
        "index" => new IndexViewModel
        {
            IsNewAccount = false,
            FeaturedCampaign = new CampaignSummary { Id = 7, Title = "Featured", Description = new string('d', 120), ImageUrl = "https://example.com/i.png", OrganizationName = "Org", Headline = "Headline" },
            AllEvents = Enumerable.Range(0, 20).Select(i => new ActiveOrUpcomingEvent
            {
                Id = i,
                ImageUrl = "https://example.com/event/" + i + ".png",
                Name = "Event number " + i,
                CampaignName = "Campaign " + (i % 3),
                CampaignManagedOrganizerName = "Organizer " + (i % 5),
                Description = "A description of event " + i + " that is a little longer than a name.",
                StartDate = new DateTimeOffset(2026, 1, 1, 9, 0, 0, TimeSpan.Zero).AddDays(i),
                EndDate = new DateTimeOffset(2026, 1, 1, 17, 0, 0, TimeSpan.Zero).AddDays(i),
            }).ToList(),
        },
        _ => throw new ArgumentOutOfRangeException(nameof(name), name, null),
    };

    private static Location NewLocation(int i) => new()
    {
        Id = i, Address1 = "The Street Name", Address2 = "Apartment 12", City = "The City", State = "The State",
        PostalCode = "12-345", Name = "Location " + i, PhoneNumber = "+48 123 456 789", Country = "The Country",
    };
}

[DataContract(Namespace = "urn:bench")]
public sealed class LoginViewModel
{
    [DataMember] public string Email { get; set; } = "";
    [DataMember] public string Password { get; set; } = "";
    [DataMember] public bool RememberMe { get; set; }
}

[DataContract(Namespace = "urn:bench")]
public sealed class Location
{
    [DataMember] public int Id { get; set; }
    [DataMember] public string Address1 { get; set; } = "";
    [DataMember] public string Address2 { get; set; } = "";
    [DataMember] public string City { get; set; } = "";
    [DataMember] public string State { get; set; } = "";
    [DataMember] public string PostalCode { get; set; } = "";
    [DataMember] public string Name { get; set; } = "";
    [DataMember] public string PhoneNumber { get; set; } = "";
    [DataMember] public string Country { get; set; } = "";
}

[DataContract(Namespace = "urn:bench")]
public sealed class ActiveOrUpcomingEvent
{
    [DataMember] public int Id { get; set; }
    [DataMember] public string ImageUrl { get; set; } = "";
    [DataMember] public string Name { get; set; } = "";
    [DataMember] public string CampaignName { get; set; } = "";
    [DataMember] public string CampaignManagedOrganizerName { get; set; } = "";
    [DataMember] public string Description { get; set; } = "";
    [DataMember] public DateTimeOffset StartDate { get; set; }
    [DataMember] public DateTimeOffset EndDate { get; set; }
}

[DataContract(Namespace = "urn:bench")]
public sealed class CampaignSummary
{
    [DataMember] public int Id { get; set; }
    [DataMember] public string Title { get; set; } = "";
    [DataMember] public string Description { get; set; } = "";
    [DataMember] public string ImageUrl { get; set; } = "";
    [DataMember] public string OrganizationName { get; set; } = "";
    [DataMember] public string Headline { get; set; } = "";
}

[DataContract(Namespace = "urn:bench")]
public sealed class IndexViewModel
{
    [DataMember] public List<ActiveOrUpcomingEvent> AllEvents { get; set; } = [];
    [DataMember] public CampaignSummary? FeaturedCampaign { get; set; }
    [DataMember] public bool IsNewAccount { get; set; }
}
