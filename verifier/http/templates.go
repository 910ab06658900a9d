package http

import (
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/idgate/idgate/verifier"
)

// templateResponse: the name, every default option that was set (the same
// names as the create request), the Request Rules and the times.
type templateResponse struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	verifier.TemplateSettings
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

func toTemplateResponse(t verifier.Template) (templateResponse, error) {
	ts, err := verifier.ParseTemplateSettings(t.Settings)
	if err != nil {
		return templateResponse{}, err
	}
	return templateResponse{ID: t.ID, Name: t.Name, TemplateSettings: ts, CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt}, nil
}

func (s *Server) templateJSON(c *fiber.Ctx, status int, t verifier.Template) error {
	r, err := toTemplateResponse(t)
	if err != nil {
		return err
	}
	return c.Status(status).JSON(r)
}

func (s *Server) postTemplate(c *fiber.Ctx) error {
	var req verifier.TemplateRequest
	if err := DecodeJSON(c.Body(), &req); err != nil {
		return err
	}
	a, _ := Account(c)
	t, err := s.verifications.CreateTemplate(c.UserContext(), a.ID, req)
	if err != nil {
		return err
	}
	return s.templateJSON(c, fiber.StatusCreated, t)
}

func (s *Server) listTemplates(c *fiber.Ctx) error {
	a, _ := Account(c)
	ts, err := s.verifications.Store.ListTemplates(c.UserContext(), a.ID)
	if err != nil {
		return err
	}
	out := struct {
		Items []templateResponse `json:"items"`
	}{Items: make([]templateResponse, len(ts))}
	for i, t := range ts {
		if out.Items[i], err = toTemplateResponse(t); err != nil {
			return err
		}
	}
	return c.JSON(out)
}

func (s *Server) getTemplate(c *fiber.Ctx) error {
	a, _ := Account(c)
	t, err := s.verifications.Store.GetTemplate(c.UserContext(), a.ID, c.Params("id"))
	if err != nil {
		return err
	}
	return s.templateJSON(c, fiber.StatusOK, t)
}

// putTemplate replaces the whole template; verifications already created
// from it keep the values they copied.
func (s *Server) putTemplate(c *fiber.Ctx) error {
	var req verifier.TemplateRequest
	if err := DecodeJSON(c.Body(), &req); err != nil {
		return err
	}
	a, _ := Account(c)
	t, err := s.verifications.ReplaceTemplate(c.UserContext(), a.ID, c.Params("id"), req)
	if err != nil {
		return err
	}
	return s.templateJSON(c, fiber.StatusOK, t)
}

func (s *Server) deleteTemplate(c *fiber.Ctx) error {
	a, _ := Account(c)
	if err := s.verifications.Store.DeleteTemplate(c.UserContext(), a.ID, c.Params("id")); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
