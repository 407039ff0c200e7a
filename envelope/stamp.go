package envelope

import (
	"bytes"
	"fmt"

	"gopkg.in/yaml.v3"
)

// SetMetadata returns the envelope text data with metadata.key set to
// value, replacing an earlier value of that key and keeping everything
// else (comments included, as far as YAML round-trips them). data must be
// an envelope that Parse accepts; the result is YAML.
func SetMetadata(data []byte, key string, value any) (out []byte, err error) {
	defer func() {
		// yaml.v3 has panicked on hostile input; an envelope must never
		// crash vouch.
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("set metadata: %v", r)
		}
	}()
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("set metadata: %w", err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("set metadata: the envelope is not a mapping")
	}
	top := doc.Content[0]
	var v yaml.Node
	if err := v.Encode(value); err != nil {
		return nil, fmt.Errorf("set metadata: %w", err)
	}
	var meta *yaml.Node
	for i := 0; i+1 < len(top.Content); i += 2 {
		if top.Content[i].Value == "metadata" {
			meta = top.Content[i+1]
			if meta.Kind != yaml.MappingNode {
				// Parse accepts only a mapping or null here.
				*meta = yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
			}
		}
	}
	if meta == nil {
		meta = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		top.Content = append(top.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "metadata"}, meta)
	}
	meta.Style &^= yaml.FlowStyle
	for i := 0; i+1 < len(meta.Content); i += 2 {
		if meta.Content[i].Value == key {
			meta.Content[i+1] = &v
			return encode(&doc)
		}
	}
	meta.Content = append(meta.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, &v)
	return encode(&doc)
}

func encode(doc *yaml.Node) ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("set metadata: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("set metadata: %w", err)
	}
	return b.Bytes(), nil
}
