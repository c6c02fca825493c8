#include "report/cohort_labels.hpp"

#include <array>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <utility>

#include "report/store_report.hpp"

namespace perfgate {
namespace {

/// A v2 cohort's label while it is built: the head, then the parts in parentheses.
struct LabelDraft {
  const NormalizedRecord* record;
  CohortKey key;
  std::string head;                ///< workload/variant, /vN when siblings differ by it
  std::vector<std::string> parts;  ///< "n=200000", "hw-1a2b", shown in parentheses
};

std::string label_text(const LabelDraft& draft) {
  if (draft.parts.empty()) return draft.head;
  std::string text = draft.head + " (";
  for (std::size_t i = 0; i < draft.parts.size(); ++i) {
    if (i > 0) text += ", ";
    text += draft.parts[i];
  }
  return text + ")";
}

/// The identity fields that may tell siblings of the same parameters apart, in the order
/// tried: a machine and its software are what a person can name, while a recipe that
/// differs between machines would say less.
struct IdentityField {
  std::string CohortKey::*member;
  std::string_view tag;    ///< the prefix the id carries before its hash ("hw-")
  std::string_view shown;  ///< written before the tag and the hash ("recipe ")
};
constexpr std::array<IdentityField, 3> kTellingFields = {{
    {&CohortKey::hardware_profile_id, "hw-", ""},
    {&CohortKey::software_profile_id, "sw-", ""},
    {&CohortKey::recipe_fingerprint, "", "recipe "},
}};

/// Short hashes stay at least this long, as git's shortest abbreviation.
constexpr std::size_t kShortestHash = 4;

std::string_view hash_part(std::string_view id, std::string_view tag) {
  return id.substr(0, tag.size()) == tag ? id.substr(tag.size()) : id;
}

/// The shortest prefix of `hash`, kShortestHash characters at least, that none of
/// `others` begins with; the whole hash when one does all along.
std::string_view unique_prefix(std::string_view hash, const std::set<std::string_view>& others) {
  std::size_t length = std::min(hash.size(), kShortestHash);
  const auto shared = [&] {
    for (const std::string_view other : others) {
      if (other != hash && other.substr(0, length) == hash.substr(0, length)) return true;
    }
    return false;
  };
  while (length < hash.size() && shared()) ++length;
  return hash.substr(0, length);
}

/// The drafts of `group` that read the same as another, grouped by what they read.
std::vector<std::vector<LabelDraft*>> same_labels(const std::vector<LabelDraft*>& group) {
  std::map<std::string, std::vector<LabelDraft*>> by_text;
  for (LabelDraft* draft : group) by_text[label_text(*draft)].push_back(draft);
  std::vector<std::vector<LabelDraft*>> same;
  for (auto& [text, drafts] : by_text) {
    if (drafts.size() > 1) same.push_back(std::move(drafts));
  }
  return same;
}

/// Siblings that read the same get the first identity field, from `first_field` on, whose
/// values differ among them; those that share that value too go on to the next field.
void tell_apart(const std::vector<LabelDraft*>& group, std::size_t first_field) {
  for (std::size_t f = first_field; f < kTellingFields.size(); ++f) {
    const IdentityField& field = kTellingFields[f];
    std::set<std::string_view> values;
    std::set<std::string_view> hashes;
    for (const LabelDraft* draft : group) {
      values.insert(draft->key.*field.member);
      hashes.insert(hash_part(draft->key.*field.member, field.tag));
    }
    if (values.size() < 2) continue;
    for (LabelDraft* draft : group) {
      const std::string& id = draft->key.*field.member;
      const std::string_view hash = hash_part(id, field.tag);
      const std::string_view tag = std::string_view(id).substr(0, id.size() - hash.size());
      draft->parts.push_back(std::string(field.shown) + std::string(tag) +
                             std::string(unique_prefix(hash, hashes)));
    }
    for (const auto& still_same : same_labels(group)) tell_apart(still_same, f + 1);
    return;
  }
}

/// The parameters that differ among the siblings, each sibling's own values of them.
void add_telling_parameters(const std::vector<LabelDraft*>& family) {
  std::set<std::string> axes;
  for (const LabelDraft* draft : family) {
    for (const auto& [axis, value] : draft->record->parameters) axes.insert(axis);
  }
  const auto value_of = [](const LabelDraft* draft,
                           const std::string& axis) -> std::optional<std::string> {
    const auto found = draft->record->parameters.find(axis);
    if (found == draft->record->parameters.end()) return std::nullopt;
    return found->second;
  };
  for (const std::string& axis : axes) {  // by axis name
    const auto first = value_of(family.front(), axis);
    bool differs = false;
    for (const LabelDraft* draft : family) differs |= value_of(draft, axis) != first;
    if (!differs) continue;
    for (LabelDraft* draft : family) {
      if (const auto value = value_of(draft, axis)) draft->parts.push_back(axis + "=" + *value);
    }
  }
}

}  // namespace

std::vector<std::string> store_view_labels(const std::vector<const NormalizedRecord*>& cohorts) {
  std::vector<std::string> labels(cohorts.size());
  std::vector<LabelDraft> drafts;
  std::vector<std::size_t> positions;
  for (std::size_t i = 0; i < cohorts.size(); ++i) {
    if (const auto key = cohorts[i]->cohort()) {
      drafts.push_back({cohorts[i], *key, "", {}});
      positions.push_back(i);
    } else {
      labels[i] = cohort_label(*cohorts[i]);
    }
  }
  std::map<std::pair<std::string, std::string>, std::vector<LabelDraft*>> families;
  for (LabelDraft& draft : drafts) {
    families[{draft.key.workload_id, draft.key.variant_id}].push_back(&draft);
  }
  for (auto& [name, family] : families) {
    std::set<long long> versions;
    for (const LabelDraft* draft : family) versions.insert(draft->key.benchmark_version);
    for (LabelDraft* draft : family) {
      draft->head = name.first + "/" + name.second;
      if (versions.size() > 1) draft->head += "/v" + std::to_string(draft->key.benchmark_version);
    }
    add_telling_parameters(family);
    for (const auto& same : same_labels(family)) tell_apart(same, 0);
  }
  for (std::size_t d = 0; d < drafts.size(); ++d) labels[positions[d]] = label_text(drafts[d]);
  return labels;
}

}  // namespace perfgate
